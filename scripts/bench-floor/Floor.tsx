// The floor of the checkout's speed figures (issue 22, item 12): a React island that does
// nothing, in the same Astro build and layout as /cart, so `npm run bench` can say how much of
// /cart's blocking time is the app's own rather than React's and the machine's.
export default function Floor() {
  return <p>Nothing here: this page measures the cost of an empty React island.</p>;
}
