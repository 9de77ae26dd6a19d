"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=write-admission.js.map