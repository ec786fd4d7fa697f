type Page<T> = (cursor: string | undefined) => Promise<{ data?: T[]; response: Response }>;

/**
 * Every item of a listing, page after page, following `Link: rel="next"` to the end (no link,
 * or an empty page): `page` asks for one page with the cursor it is given (none at first).
 *
 *     for await (const pet of paginate((cursor) =>
 *       petstore.api.GET("/pets", { params: { query: { status: "available", cursor } } }))) {}
 */
export function paginate<T>(page: Page<T>): AsyncGenerator<T, void, undefined> {
  return walk(page, undefined);
}

/** The events feed as it grows: at its end, asked again every `everySeconds` (with the cache
 * on, a `304` spends nothing of the day). Never ends: break out of it. */
export function follow<T>(page: Page<T>, everySeconds = 5): AsyncGenerator<T, void, undefined> {
  return walk(page, everySeconds);
}

async function* walk<T>(page: Page<T>, everySeconds: number | undefined): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const { data = [], response } = await page(cursor);
    yield* data;
    const found = nextCursor(response.headers.get("Link"));
    // The feed links on from its last page too; a listing stops linking.
    if (found === undefined || (data.length === 0 && everySeconds === undefined)) {
      return;
    }
    if (data.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, (everySeconds ?? 0) * 1000));
    }
    cursor = found;
  }
}

/** The cursor of the `rel="next"` link; the link keeps the listing's other parameters, which
 * `page` sends again itself, typed. */
export function nextCursor(link: string | null): string | undefined {
  // Not split at commas: a listing's own parameters may hold some (categoryId=1,2).
  const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(link ?? "");
  return match ? (new URL(match[1], "http://localhost").searchParams.get("cursor") ?? undefined) : undefined;
}
