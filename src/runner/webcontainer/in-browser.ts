/** The real WebContainer, loaded only when an exercise that needs Node is first run on a static host. */
import { WebContainer } from '@webcontainer/api';
import type { ClientBundle } from '../bundle.ts';
import type { Runner } from '../runner-types.ts';
import type { WebContainerHooks } from '../select-runner.ts';
import { bootOnce } from './boot.ts';
import { idbCache } from './idb-cache.ts';
import type { WebContainerLike } from './wc-api.ts';
import { startWebContainerRunner } from './wc-runner.ts';

// One per document, shared by every exercise on the page; booted by the first Run, not on load.
const container = bootOnce(() => WebContainer.boot({ coep: 'require-corp', workdirName: 'exercise' }) as unknown as Promise<WebContainerLike>);

export async function startInBrowser(bundle: ClientBundle, hooks: WebContainerHooks): Promise<Runner> {
  await container.retry(); // after a failed boot, "Try again" boots anew
  return startWebContainerRunner({
    boot: container.get,
    reboot: container.reboot,
    bundle,
    cache: idbCache,
    onInstalling: hooks.installing,
    onInstalled: (how) => how !== 'cache' && hooks.installed(how),
    onError: hooks.error,
  });
}
