// Sandbox-only tools: the mailbox that shows the outbox (activation codes, reset links).
import type { Routes } from "../app.ts";
import { Outbox } from "../db/outbox.ts";
import { escapeHtml, fail, html, json } from "../http/reply.ts";

export const MAILBOX_PATH = "/dev/mailbox";

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
  routes.raw("GET", MAILBOX_PATH, async (ctx) => {
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
