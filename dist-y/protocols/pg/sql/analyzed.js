"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=analyzed.js.map