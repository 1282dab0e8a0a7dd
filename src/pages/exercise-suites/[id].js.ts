/**
 * /exercise-suites/<id>.js: the hidden suite of an exercise graded in the page (`inBrowser: worker`),
 * built for the grading worker from the same test files the Node grader runs (no hand-kept copy).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { buildWorkerSuite } from './_suite-build.ts';
import { exerciseIds, loadExercise, suiteFiles, testList, testSupportFiles } from '../../workspace/exercise-files.ts';

export const getStaticPaths: GetStaticPaths = () =>
  exerciseIds()
    .filter((id) => loadExercise(id)?.exercise.inBrowser === 'worker')
    .map((id) => ({ params: { id } }));

export const GET: APIRoute = async ({ params }) => {
  const { exercise, starter } = loadExercise(params.id!)!;
  return new Response(await buildWorkerSuite(exercise, suiteFiles(params.id!), testSupportFiles(), starter, testList(params.id!)), {
    headers: { 'content-type': 'text/javascript; charset=utf-8' },
  });
};
