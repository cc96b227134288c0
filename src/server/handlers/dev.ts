// Sandbox-only tools: the mailbox that shows the outbox (activation codes, reset links).
import { createHash } from "node:crypto";
import { z } from "zod";
import { safeRedirectPath } from "../../domain/account/redirects.ts";
import { randomToken } from "../auth/tokens.ts";
import { Invites } from "../db/instances.ts";
import { Outbox } from "../db/outbox.ts";
import { escapeHtml, fail, html, json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { accountOf } from "./helpers.ts";

const MAILBOX_PATH = "/dev/mailbox";
/**
 * Invitations are sent from the editor's team page, which is not part of this product; in a local
 * run a team's owner makes one here (an open link, or one bound to an address), so the invitation
 * flow can be tried and tested on teams of one's own.
 */
const DEV_INVITES_PATH = "/dev/invites";
const DevInviteRequest = z.object({ email: z.email().max(254).optional() }).optional();

/** Turns this site's links in a mail into anchors; everything else stays text. */
function linkify(text: string, publicBaseUrl: string): string {
  return escapeHtml(text).replace(/(https?:\/\/[^\s<]+)/g, (url) => {
    const raw = url.replace(/&amp;/g, "&");
    try {
      const target = new URL(raw);
      if (target.origin !== new URL(publicBaseUrl).origin) return url;
      return `<a href="${escapeHtml(`${target.pathname}${target.search}${target.hash}`)}">${url}</a>`;
    } catch {
      return url;
    }
  });
}

export function devRoutes(routes: Routes): void {
  routes.raw({ method: "GET", path: HUB_DEMO_PATH }, async (ctx) => {
    // Only a page of this site may be framed: the query may choose which checkout screen.
    const wanted = ctx.url.searchParams.get("cart") ?? "/cart#plans";
    const cart = safeRedirectPath(wanted);
    const path = cart?.startsWith("/cart") ? cart : "/cart#plans";
    return html(hubDemoPage(path), 200, { "Content-Security-Policy": hubDemoCsp() });
  });

  routes.raw(
    { method: "POST", path: DEV_INVITES_PATH, body: DevInviteRequest },
    async (ctx, { body }) => {
      if (ctx.app.config.payments !== "sandbox") return fail("not_found");
      const account = await accountOf(ctx);
      if (!account.instance || !account.isOwner) return fail("not_instance_owner");
      const code = randomToken(12);
      const instanceId = account.instance.id;
      await ctx.app.db.transaction((tx) =>
        Invites.insert(tx, {
          code,
          instanceId,
          inviterUserId: account.user.id,
          email: body?.email?.trim().toLowerCase() ?? null,
          createdAt: ctx.now(),
          acceptedAt: null,
          acceptedBy: null,
        }),
      );
      return json({ code, path: `/cart/invite/${code}` });
    },
  );

  routes.raw({ method: "GET", path: MAILBOX_PATH }, async (ctx) => {
    if (ctx.app.config.payments !== "sandbox") return fail("not_found");
    const to = ctx.url.searchParams.get("to")?.trim().toLowerCase() || undefined;
    const mails = await Outbox.latest(ctx.app.db, 50, to);
    if (ctx.url.searchParams.get("format") === "json") {
      return json(
        mails.map((m) => ({
          id: m.id,
          to: m.recipient,
          subject: m.subject,
          body: m.body,
          createdAt: m.createdAt,
        })),
      );
    }
    const items = mails
      .map(
        (
          m,
        ) => `<article><h2>${escapeHtml(m.subject)}</h2><p class="meta">To ${escapeHtml(m.recipient)} · ${escapeHtml(new Date(m.createdAt).toISOString())}</p>
<pre>${linkify(m.body, ctx.app.config.publicBaseUrl)}</pre></article>`,
      )
      .join("\n");
    return html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sandbox mailbox</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}article{border-top:1px solid #ccc;padding:.5rem 0}
pre{white-space:pre-wrap;font:inherit}.meta{color:#555;font-size:.9rem}</style></head>
<body><h1>Sandbox mailbox</h1><p>E-mail the server sent, newest first (sandbox mode only; ${mails.length} shown).</p>
${items || "<p>No e-mail yet.</p>"}</body></html>`);
  });
}

const HUB_DEMO_PATH = "/dev/hub";

/**
 * The hub demo page's script: it frames /cart, lists every event the checkout posts to it, and
 * can send the checkout a navigate message, so a person and the browser tests can watch the
 * protocol of src/browser/README.md. Messages from anything but its own frame are ignored.
 */
const HUB_DEMO_SCRIPT = `const frame=document.getElementById("cart");const list=document.getElementById("events");
addEventListener("message",(e)=>{if(e.origin!==location.origin||e.source!==frame.contentWindow)return;
const d=e.data;if(!d||d.source!=="checkout")return;const li=document.createElement("li");
li.dataset.event=d.event;li.textContent=d.event+" "+JSON.stringify(d.payload??{});list.append(li);});
document.getElementById("send").addEventListener("submit",(e)=>{e.preventDefault();
frame.contentWindow.postMessage({source:"hub",version:1,event:"navigate",payload:{hash:document.getElementById("hash").value}},location.origin);});`;

function hubDemoPage(cartPath: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Hub demo</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:1rem}iframe{width:100%;height:32rem;border:1px solid #888}
ol{font:14px/1.4 ui-monospace,monospace}</style></head><body>
<h1>Hub demo</h1><p>This page stands in for the editor's hub (local runs only). It frames the checkout and lists the events it receives.</p>
<iframe id="cart" title="Checkout" src="${escapeHtml(cartPath)}"></iframe>
<form id="send"><label for="hash">Ask the checkout to show</label> <input id="hash" value="#plans"> <button type="submit">Send navigate</button></form>
<h2>Events received</h2><ol id="events" aria-live="polite"></ol>
<script>${HUB_DEMO_SCRIPT}</script></body></html>`;
}

function hubDemoCsp(): string {
  const hash = createHash("sha256").update(HUB_DEMO_SCRIPT, "utf8").digest("base64");
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
}
