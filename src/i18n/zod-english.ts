/**
 * Imported for its effect: zod's English issue messages, for the code that shows them to people (the
 * grade-class command, content checks). The shared schemas are zod/mini, because they also run in the
 * browser, and zod/mini loads no locale: without this every issue would read "Invalid input".
 * The browser never shows zod's wording.
 */
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());
