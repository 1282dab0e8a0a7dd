// See package.json: vite catches this and uses its PowerShell fallback.
throw new Error('napi-windows-process-start-time is a stub in this project (see scripts/npm-stubs/)');
