// The words shown for a failed call (src/client/error-messages.ts) load when the first failure is
// shown, not with the app: most visits never see one, and the catalogue of messages is a large
// part of the app's JavaScript (the 90 KB budget). Until it arrives, the failure's own message
// shows: the answer's message, which spec 8 says to use, and which the server takes from the
// same catalogue.
import { atom } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { reporter } from "./telemetry.ts";

export const $failureText = atom<((failure: ApiFailure) => string) | null>(null);

let loading: Promise<void> | null = null;

export function loadFailureMessages(): Promise<void> {
  loading ??= reporter
    .watchChunk(import("../client/error-messages.ts"), { name: "error-messages" })
    .then((module) => $failureText.set(module.failureMessage))
    .catch(() => {
      loading = null;
    });
  return loading;
}
