"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=listener-options.js.map