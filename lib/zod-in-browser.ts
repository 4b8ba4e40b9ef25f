// zod compiles object schemas with `new Function` where it may; in the browser the page's CSP
// forbids eval, and zod's probe for it is itself a CSP violation. Imported first by every module
// that builds schemas the browser uses, before they are built.
import { z } from 'zod';

if (typeof window !== 'undefined') z.config({ jitless: true });
