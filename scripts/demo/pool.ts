// At most `limit` tasks at once: the season's visitors act side by side, as many people do, but
// never more at a time than the server (and the machine's two cores) answer without a queue.

/** Runs `task` over every item, at most `limit` at a time; rejects with the first failure. */
export async function eachBounded<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed: unknown = null;
  const worker = async () => {
    while (failed === null && next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        failed ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed !== null) throw failed;
}
