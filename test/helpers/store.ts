// A store for the length of one piece of a test: opened (an in-memory database unless a path is
// given), handed over, closed whatever happens.

import { Store } from '../../src/store/index.js';

export async function withStore<T>(work: (store: Store) => Promise<T>, path = ':memory:'): Promise<T> {
  const store = await Store.open(path);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}
