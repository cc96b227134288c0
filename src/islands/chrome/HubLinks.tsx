// Controls that tell the hub what the person did (spec 4, src/browser/README.md "Which control
// sends which event"). Outside the hub's frame they are plain links; inside it, the ones that
// would load the hub's own pages inside its frame (the editor's dashboard) ask the hub instead.
import { useStore } from "@nanostores/react";
import type { MouseEvent, ReactNode } from "react";
import type { HubEvent } from "../../browser/hub.ts";
import { postToHub } from "../../stores/hub.ts";
import { $host } from "../../stores/start.ts";

type Props = { className?: string; children: ReactNode };

/** "Go to the editor", "Start editing": the dashboard (navigate_to_dashboard). */
export function DashboardLink({ className, children }: Props) {
  const host = useStore($host);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (host !== "hub") return;
    // The hub is the dashboard: it shows it, rather than the frame loading the hub again.
    event.preventDefault();
    postToHub("navigate_to_dashboard");
  };
  return (
    <a className={className} href="/app" onClick={onClick}>
      {children}
    </a>
  );
}

/** A link of the app that also tells the hub it was followed (the link still works). */
export function ReportedLink({
  event,
  href,
  className,
  children,
}: Props & { event: Exclude<HubEvent, "cart_navigation">; href: string }) {
  return (
    <a className={className} href={href} onClick={() => postToHub(event)}>
      {children}
    </a>
  );
}
