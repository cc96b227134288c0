// The footer of spec 2.6: the copyright line of the current year, and the terms-of-use and privacy
// links, each opening in a new tab (the person keeps their place in the checkout). Inside the
// hub's frame the privacy link also tells the hub (clicked_privacy_link, spec 4).
import { postToHub } from "../../stores/hub.ts";
import { footerModel } from "../../view-models/site.ts";

export function Footer({ nowMs }: { nowMs: number }) {
  const footer = footerModel(nowMs);
  return (
    <footer className="site-footer">
      <div className="bar">
        <p>
          © {footer.year} {footer.owner}
        </p>
        <ul>
          {footer.legal.map((link) => (
            <li key={link.href}>
              <a
                href={link.href}
                target="_blank"
                rel="noopener"
                onClick={
                  link.href === "/privacy" ? () => postToHub("clicked_privacy_link") : undefined
                }
              >
                {link.label}
                <span className="vh"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
