/** The components every lesson can use without importing them (see docs/writing-lessons.md). */
import Callout from './Callout.astro';
import Exercise from './Exercise.astro';
import Lab from './Lab.astro';
import Quiz from './Quiz.astro';
import SimTable from './SimTable.astro';

export const lessonComponents = { Callout, Exercise, Lab, Quiz, SimTable };
