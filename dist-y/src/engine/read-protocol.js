"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=read-protocol.js.map