/**
 * /exercise-bundles/<id>.json: what the browser needs to grade an exercise in a WebContainer (the
 * exercise, env files with the lockfile, hidden suite, starter) and the reference solution that
 * "Show solution" offers. Built from the exercise folders at build time.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { clientBundle, exerciseIds } from '../../workspace/exercise-files.ts';

export const getStaticPaths: GetStaticPaths = () => exerciseIds().map((id) => ({ params: { id } }));

export const GET: APIRoute = ({ params }) =>
  new Response(JSON.stringify(clientBundle(params.id!)), { headers: { 'content-type': 'application/json; charset=utf-8' } });
