/**
 * Utility classes (utility-classes.ts): Tailwind's and Bootstrap's classes are told from a
 * template author's names by their shape, and the class weight's chrome test reads the
 * authored names only. Classes written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement } from '../../src/markdown/dom.js';
import { classWeight } from '../../src/markdown/measure.js';
import { authoredClasses, isUtilityClass } from '../../src/markdown/utility-classes.js';

describe('utility classes', () => {
  it('recognises spacing, typography, colour, layout and grid utilities with their variants', () => {
    for (const c of [
      'mb-4',
      '-mt-2',
      'lg:w-[600px]',
      'w-1/2',
      'font-extrabold',
      'leading-extra-tight',
      'md:text-lg',
      'text-gray-500',
      'hover:bg-blue-500/50',
      'justify-content-between',
      'shadow-sm',
      'col-md-6',
      'd-flex',
      'flex-column',
      'overflow-x-auto',
      'bg-scroll',
      'has-[[data-slot=banner]]:pt-0',
    ]) {
      assert.equal(isUtilityClass(c), true, c);
    }
  });

  it('keeps the names an author chose, and what hides a box', () => {
    for (const c of [
      'entry-content',
      'text-content',
      'content-main',
      'left-sidebar',
      'col-main',
      'w-embed',
      'h-entry',
      'p-author',
      'to-top',
      'select-menu',
      'post-1234',
      'hidden',
      'sm:hidden',
      'sr-only',
    ]) {
      assert.equal(isUtilityClass(c), false, c);
    }
  });

  it('leaves a class attribute of authored names as it is', () => {
    assert.equal(authoredClasses('post-body entry'), 'post-body entry');
    assert.equal(authoredClasses('flex gap-4 story-card md:p-8'), 'story-card');
  });

  it('does not weigh a box as chrome for a word inside a utility', () => {
    const box = createElement('div', {
      class: 'relative has-[[data-slot=banner]]:pt-0 bg-scroll rounded-lg',
    });
    assert.equal(classWeight(box), 0);
    assert.equal(classWeight(createElement('div', { class: 'mt-4 sidebar' })), -25);
  });
});
