// The content collections Astro reads (modules, lessons, quizzes), each checked against its schema at build time.
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { lessonSchema, moduleSchema } from './course/schema.ts';
import { quizSchema } from './quiz/index.ts';

// Content lives in content/ at the top of the repository, not src/content: it is the course,
// written and reviewed apart from the code that shows it.
export const collections = {
  modules: defineCollection({ loader: file('./content/modules.json'), schema: moduleSchema }),
  lessons: defineCollection({
    loader: glob({ pattern: process.env.COURSE_LESSON_GLOB ?? '**/*.mdx', base: './content/lessons' }),
    schema: lessonSchema,
  }),
  quizzes: defineCollection({ loader: glob({ pattern: '*.json', base: './content/quizzes' }), schema: quizSchema }),
};
