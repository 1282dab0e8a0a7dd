/**
 * <course-quiz>: checks the server-rendered questions in place. It depends on nothing else on the
 * page, so a failing script elsewhere cannot stop a quiz from working.
 */
import { isCorrect, parseNumber, type Answer } from './grade.ts';
import { reportQuizScore } from './events.ts';
import { inlineMarkup } from './inline.ts';
import type { LocalQuestion } from './localize.ts';
import { elementStrings, fillPlaceholders } from '../i18n/index.ts';

type ClientQuestion = LocalQuestion;

const fill = fillPlaceholders;

export class CourseQuiz extends HTMLElement {
  #questions: ClientQuestion[] = [];
  #strings: Record<string, string> = {};
  #results = new Map<string, { correct: boolean; answer: Answer }>();
  /** Questions answered wrong once: the next wrong answer reveals the right one. */
  #missedOnce = new Set<string>();

  connectedCallback() {
    const raw = this.querySelector('script[data-quiz-data]')?.textContent ?? '{"questions":[]}';
    this.#questions = JSON.parse(raw).questions;
    this.#strings = elementStrings(this);
    this.querySelector<HTMLDetailsElement>('[data-answer-key]')!.hidden = true;
    for (const el of this.querySelectorAll<HTMLElement>('.quiz-actions, [data-move]')) el.hidden = false;

    this.addEventListener('click', (event) => {
      const target = (event.target as HTMLElement).closest('button');
      if (!target) return;
      const question = target.closest<HTMLElement>('[data-question]');
      if (target.matches('[data-check]') && question) this.#check(question);
      else if (target.matches('[data-move]') && question) this.#move(target, question, Number(target.dataset.move));
      else if (target.matches('[data-retry]')) this.#reset();
    });
    this.addEventListener('keydown', (event) => {
      // Enter in a numeric answer checks that question instead of submitting anything.
      const input = event.target as HTMLElement;
      if (event.key === 'Enter' && input.matches('input[type="text"]')) {
        event.preventDefault();
        const question = input.closest<HTMLElement>('[data-question]');
        if (question) this.#check(question);
      }
    });
  }

  #question(el: HTMLElement): ClientQuestion {
    return this.#questions.find((q) => q.id === el.dataset.question)!;
  }

  #answerOf(el: HTMLElement, q: ClientQuestion): Answer | undefined {
    const inputs = [...el.querySelectorAll<HTMLInputElement>('input')];
    switch (q.type) {
      case 'single': {
        const picked = inputs.find((i) => i.checked);
        return picked ? { type: 'single', choice: picked.value } : undefined;
      }
      case 'multiple': {
        const picked = inputs.filter((i) => i.checked).map((i) => i.value);
        return picked.length ? { type: 'multiple', choices: picked } : undefined;
      }
      case 'numeric': {
        const value = inputs[0]?.value ?? '';
        return value.trim() ? { type: 'numeric', value } : undefined;
      }
      case 'order':
        return { type: 'order', items: [...el.querySelectorAll<HTMLElement>('[data-item]')].map((li) => li.dataset.item!) };
    }
  }

  #check(el: HTMLElement) {
    const q = this.#question(el);
    const answer = this.#answerOf(el, q);
    const feedback = el.querySelector<HTMLElement>('[data-feedback]')!;
    if (!answer || (answer.type === 'numeric' && parseNumber(answer.value) === undefined)) {
      // Not an answer yet: nothing is counted, and the message says what is missing.
      feedback.textContent = (q.type === 'numeric' ? this.#strings.enterNumber : this.#strings.pickOne) ?? '';
      return;
    }
    const correct = isCorrect(q, answer);
    if (!correct && !this.#missedOnce.has(q.id)) {
      // One more try before the right answer is revealed and the question locks. What was chosen
      // stays marked, so the second try is not a guess at what the first one was.
      this.#missedOnce.add(q.id);
      feedback.innerHTML = `<p class="verdict-retry">${this.#firstMiss(el, q, answer)}</p>`;
      return;
    }
    this.#results.set(q.id, { correct, answer });
    const parts = [`<p class="verdict-${correct ? 'right' : 'wrong'}">${correct ? this.#strings.correct : this.#strings.incorrect}</p>`];
    if (q.type === 'single' || q.type === 'multiple') {
      for (const choice of q.choices) {
        const li = el.querySelector<HTMLInputElement>(`input[value="${choice.id}"]`)!.closest('li')!;
        const picked = li.querySelector('input')!.checked;
        if (picked || choice.correct) {
          li.dataset.verdict = choice.correct ? 'right' : 'wrong';
          (li.querySelector('[data-explanation-for]') as HTMLElement).hidden = false;
        }
      }
    } else {
      if (!correct && q.type === 'numeric')
        parts.push(`<p>${fill(this.#strings.correctAnswer ?? '', { answer: `${q.answer}${q.unit ? ` ${q.unit}` : ''}` })}</p>`);
      if (!correct && q.type === 'order') {
        parts.push(`<p>${fill(this.#strings.correctOrder ?? '', { answer: q.items.map((i) => inlineMarkup(i.text)).join(' → ') })}</p>`);
      }
      parts.push(`<p>${inlineMarkup(q.explanation)}</p>`);
    }
    feedback.innerHTML = parts.join('');
    for (const control of el.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button')) control.disabled = true;
    // A locked question has nothing left to check: hide the button, keep focus on the verdict.
    const hadFocus = el.contains(document.activeElement);
    el.querySelector<HTMLElement>('.quiz-actions')!.hidden = true;
    feedback.tabIndex = -1;
    if (hadFocus) feedback.focus();
    this.#updateScore();
  }

  /** Marks the option(s) of a first wrong answer and says which was chosen; returns the feedback line (HTML). */
  #firstMiss(el: HTMLElement, q: ClientQuestion, answer: Answer): string {
    const retry = this.#strings.tryOnceMore ?? '';
    if (answer.type === 'single' || answer.type === 'multiple') {
      const picked = answer.type === 'single' ? [answer.choice] : answer.choices;
      for (const id of picked) {
        const li = el.querySelector<HTMLInputElement>(`input[value="${id}"]`)?.closest('li');
        if (!li || li.querySelector('.quiz-tried')) continue;
        li.dataset.tried = answer.type === 'single' ? 'wrong' : 'picked';
        const mark = document.createElement('span');
        mark.className = 'quiz-tried';
        mark.textContent = (answer.type === 'single' ? this.#strings.triedWrong : this.#strings.triedPicked) ?? '';
        li.querySelector('label')!.append(mark);
      }
      if (answer.type === 'single' && q.type === 'single') {
        const text = q.choices.find((c) => c.id === answer.choice)?.text ?? '';
        return fill(this.#strings.notThisOne ?? '', { choice: inlineMarkup(text) });
      }
      return fill(this.#strings.notThisSet ?? '', { count: picked.length });
    }
    if (answer.type === 'numeric') {
      const shown = `${answer.value.trim()}${q.type === 'numeric' && q.unit ? ` ${q.unit}` : ''}`;
      return fill(this.#strings.notThisOne ?? '', { choice: shown.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`) });
    }
    return retry;
  }

  #move(button: HTMLElement, el: HTMLElement, step: number) {
    const li = button.closest('li')!;
    const list = li.parentElement!;
    const sibling = step < 0 ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    if (step < 0) list.insertBefore(li, sibling);
    else list.insertBefore(sibling, li);
    button.focus();
    const items = [...list.children];
    el.querySelector('[data-feedback]')!.textContent = fill(this.#strings.moved ?? '', {
      item: li.querySelector('.quiz-order-text')!.textContent ?? '',
      position: items.indexOf(li) + 1,
      total: items.length,
    });
  }

  #updateScore() {
    const summary = this.querySelector<HTMLElement>('[data-summary]')!;
    summary.hidden = false;
    const score = [...this.#results.values()].filter((r) => r.correct).length;
    const total = this.#questions.length;
    const remaining = total - this.#results.size;
    const text = fill(this.#strings.score ?? '', { score, total });
    summary.querySelector('[data-score]')!.textContent = remaining
      ? `${text}. ${fill(this.#strings.remaining ?? '', { count: remaining })}`
      : `${text}. ${this.#strings.done ?? ''}`;
    if (!remaining) {
      reportQuizScore({
        quizId: this.dataset.quizId!,
        score,
        total,
        answers: Object.fromEntries([...this.#results].map(([id, r]) => [id, r.answer])),
      });
    }
  }

  #reset() {
    this.#results.clear();
    this.#missedOnce.clear();
    for (const actions of this.querySelectorAll<HTMLElement>('.quiz-actions')) actions.hidden = false;
    for (const control of this.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button')) control.disabled = false;
    for (const input of this.querySelectorAll<HTMLInputElement>('input')) {
      input.checked = false;
      if (input.type === 'text') input.value = '';
    }
    for (const li of this.querySelectorAll<HTMLElement>('[data-verdict]')) delete li.dataset.verdict;
    for (const li of this.querySelectorAll<HTMLElement>('[data-tried]')) delete li.dataset.tried;
    for (const mark of this.querySelectorAll('.quiz-tried')) mark.remove();
    for (const p of this.querySelectorAll<HTMLElement>('[data-explanation-for]')) p.hidden = true;
    for (const f of this.querySelectorAll<HTMLElement>('[data-feedback]')) f.textContent = '';
    this.querySelector<HTMLElement>('[data-summary]')!.hidden = true;
    this.querySelector<HTMLElement>('[data-question] input, [data-question] button')?.focus();
  }
}
