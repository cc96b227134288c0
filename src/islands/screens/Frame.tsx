// The frame of every screen: its heading and body. On each route change focus moves to the new
// screen's heading, so keyboard and screen-reader users start reading where the content changed.
import { useStore } from "@nanostores/react";
import { type ReactNode, useEffect, useRef } from "react";
import type { ApiFailure } from "../../client/client.ts";
import { $failureText, loadFailureMessages } from "../../stores/messages.ts";

let firstScreen = true;

export function Frame({ title, children }: { title: string; children?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The first screen of a page load keeps the browser's own focus (top of the page).
    if (firstScreen) {
      firstScreen = false;
      return;
    }
    heading.current?.focus();
  }, []);
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  );
}

/** A call in progress: visible at once, announced politely, holding its space. */
export function Busy({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="busy" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

/**
 * A failure, in words a person can act on, with a way forward: `failure` is a failed call (its
 * words come from the error catalogue, loaded on first use), `message` a text of the screen's own.
 */
export function Problem({
  failure,
  message: text,
  retry,
  children,
}: {
  failure?: ApiFailure;
  message?: string;
  retry?: () => void;
  /** A way forward of the screen's own (a link), after the message. */
  children?: ReactNode;
}) {
  const describe = useStore($failureText);
  useEffect(() => {
    if (failure) void loadFailureMessages();
  }, [failure]);
  const message = failure ? (describe ? describe(failure) : failure.message) : (text ?? "");
  return (
    <div className="problem" role="alert">
      <p>{message}</p>
      {children}
      {retry && (
        <button type="button" className="btn" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}
