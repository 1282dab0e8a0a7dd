/** The real WebContainer, loaded only on pages that need it (a static host, isolated, no local runner). */
import { WebContainer } from '@webcontainer/api';
import type { ClientBundle } from '../bundle.ts';
import type { Runner } from '../runner-types.ts';
import { bootOnce } from './boot.ts';
import { idbCache } from './idb-cache.ts';
import type { WebContainerLike } from './wc-api.ts';
import { startWebContainerRunner } from './wc-runner.ts';

// One per document, shared by every exercise on the page; started on module load of this chunk.
const container = bootOnce(() => WebContainer.boot({ coep: 'require-corp', workdirName: 'exercise' }) as unknown as Promise<WebContainerLike>);

export function startInBrowser(bundle: ClientBundle, onInstalling: () => void): Promise<Runner> {
  return startWebContainerRunner({ boot: container.get, bundle, cache: idbCache, onInstalling });
}
