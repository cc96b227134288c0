// Opens DATA_DIR as start-up does, in a child process, for the start-up tests that must run as
// another user: as root every file is writable whatever its mode. Prints the refusal as the
// server does and exits 1, or closes the database and exits 0.
import { openDataFolder } from "../data-folder.ts";
import { StartupError } from "../startup-error.ts";

try {
  (await openDataFolder(process.env.DATA_DIR ?? ".data", Date.now())).db.close();
} catch (error) {
  if (!(error instanceof StartupError)) throw error;
  process.stderr.write(`server: ${error.message}\n`);
  process.exit(1);
}
