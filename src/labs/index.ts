/** Interactive simulation labs: pure logic here; the <course-lab> element and its lazily loaded controller beside it. */
export { defaultState, hashToState, stateToHash, labAnchor, focusParamKey, type LabState, type FocusSpec, type ParsedHash } from './url-state.ts';
export { LatestOnly, type RunRequest, type RunResponse } from './protocol.ts';
export { alignSeries, thinAligned, tableIndices, type Aligned } from './thin.ts';
export { prepareView, focusSpec, focusLabel, keyFigures, PREPARE_DEFAULTS, type LabView, type PreparedChart, type PreparedXY } from './prepare.ts';
export { formatNumber, formatFigure, formatTick, axisTitle, withUnit, type FigureWords, type Lang } from './number-format.ts';
export { sliderScale, snap, isWide, type SliderScale } from './slider-scale.ts';
export { ganttSvg, stackBars, niceTicks, OUTCOMES } from './gantt-svg.ts';
export { figuresHtml, resultsTableHtml, legendHtml, chartTableHtml, ganttTableHtml, cliCommand, escapeHtml, namesOf, type RenderWords } from './render.ts';
