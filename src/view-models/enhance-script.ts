// The only JavaScript of the static pages: one inline snippet, under 1 KB, that corrects what a
// prerendered page cannot know at build time. Everything works without it (see
// docs/static-pages.md); with it:
// - [data-on="from to ..."] is shown only while the visitor's clock is inside one of its windows
//   (a campaign price or banner); [data-off="from to ..."] is hidden inside any of its windows
//   (the regular price a campaign replaces). So a page built before a campaign opens, or before it
//   closes, still shows the right price at both edges.
// - [data-year] shows the visitor's current year (the footer's copyright line).
// - ?tab=business (or education, personal) opens that tab of the plans screen.
// - #seats gets a live total from its data-bands (see seat-calculator.ts): the total for n seats
//   in a band is base + (n - from + 1) × perSeat, figures the pricing module precomputed; the
//   browser tests check it against seatBandTotal. Above the top band it offers the quote link.
// Written with one statement per line and joined at build time; no minifier is involved.
const lines = [
  "((d,n)=>{",
  "const q=s=>d.querySelectorAll(s),",
  'w=a=>{const v=a.split(" ");for(let i=0;i<v.length;i+=2)if(n>=+v[i]&&n<+v[i+1])return!0;return!1};',
  'q("[data-on]").forEach(e=>{e.hidden=!w(e.dataset.on)});',
  'q("[data-off]").forEach(e=>{e.hidden=w(e.dataset.off)});',
  'q("[data-year]").forEach(e=>{e.textContent=new Date(n).getFullYear()});',
  'const t=d.getElementById("tab-"+new URLSearchParams(location.search).get("tab"));',
  "if(t)t.checked=!0;",
  'const s=d.getElementById("seats");',
  "if(s){",
  'const b=s.dataset.bands.split(",").map(x=>x.split(" ").map(Number)),',
  'o=d.getElementById("seats-total"),k=d.getElementById("seats-quote"),h=k.href,u=s.form.querySelector("button");',
  "(s.oninput=()=>{",
  "const v=+s.value,r=b.find(x=>v>=x[0]&&v<=x[1]),m=v>b[b.length-1][1];",
  'o.textContent=r&&v>=+s.min&&v%1==0?"$"+((r[2]+(v-r[0]+1)*r[3])/100).toLocaleString("en-US",{minimumFractionDigits:2}):"–";',
  'k.href=m?"/orders?seats="+v:h;',
  "u.hidden=m})()}",
  "})(document,Date.now())",
];

export const enhanceScript = lines.join("");
