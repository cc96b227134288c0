// Screens that are part of the app's shell, shown without loading a chunk: not found, an
// unsupported browser, a blocked e-mail domain.
import { hrefFor } from "../../domain/checkout/routes.ts";
import { Frame } from "./Frame.tsx";

export function NotFoundScreen({ title }: { title: string }) {
  return (
    <Frame title={title}>
      <p>There is no checkout page at this address.</p>
      <a className="btn" href={hrefFor("plans")}>
        See the plans
      </a>
    </Frame>
  );
}

export function UnsupportedBrowserScreen() {
  return (
    <Frame title="Your browser is not supported">
      <p>
        The screen recorder needs a recent Chrome, Firefox, Opera or Edge. Update your browser, or
        open this page in one of them.
      </p>
    </Frame>
  );
}

export function BlockedScreen() {
  return (
    <Frame title="This e-mail domain cannot be used">
      <p>Accounts cannot use an e-mail address from this domain. Use another e-mail address.</p>
    </Frame>
  );
}
