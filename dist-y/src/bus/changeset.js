"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=changeset.js.map