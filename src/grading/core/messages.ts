// The grader's messages in both languages. The browser imports them too (the Web Worker grader).
import { defineCatalog, type CatalogKey } from '../../i18n/index.ts';

const en = {
  'grade.syntax': '{file} could not be loaded (line {line}, column {column}): {message}',
  'grade.load': 'The tests could not load your code: {message}',
  'grade.stopped': 'The run was stopped after {ms} ms: test "{test}" never finished. Look for a loop that never ends or never awaits (rule {rule}).',
  'grade.stoppedLoading': 'The run was stopped after {ms} ms before any test finished: does your file loop forever when it is loaded?',
  'grade.stoppedBetween':
    'The run was stopped after {ms} ms between two tests, and the {count} tests it never reached count as failed: after "{test}" nothing ran any more (something that never returns, started by your code after a test?).',
  'grade.incomplete': 'The run ended before every test of the suite had run: {count} of {total} tests were never reached, and count as failed.',
  'grade.unreached': 'The {count} tests after it were never reached and count as failed.',
  'grade.stoppedConcurrent':
    'The run was stopped after {ms} ms: {count} tests running side by side never finished, the first of them to start being "{test}" (rules {rules}). Any of them may be the one stuck: look for a loop that never ends or never awaits.',
  'grade.unreachedAfterThem': 'The {count} tests after them were never reached and count as failed.',
  'grade.limitMemory': 'The run was stopped: it used more than {mb} MB of memory while test "{test}" ran. Look for data that grows without end (rule {rule}).',
  'grade.limitMemoryLoading':
    'The run was stopped: it used more than {mb} MB of memory before any test finished. Does your file build something huge when it is loaded?',
  'grade.crashed': 'The test run ended without results (exit code {code}). Its output: {output}',
  'grade.unhandled': 'Every test passed, but an error escaped them (an unhandled rejection or a timer that threw): {message}',
  'grade.ok': 'Every rule holds.',
  'test.timedOut': 'Timed out after {ms} ms: the call never finished (a promise that never settles, or a wait that is never cancelled?). {details}',
  'test.hung': 'Still running when the run was stopped: an endless loop that never awaits blocks everything.',
  'test.notRun': 'Not run: the run was stopped before this test.',
  'test.neverReached': 'Never reached: the run ended before this test was collected or run. It counts as failed.',
  'test.limitMemory': 'Still running when the run was stopped for using more than {mb} MB of memory.',
  'input.unknownExercise': 'Unknown exercise "{id}". Known exercises: {known}.',
  'input.missingFile': 'Missing file {file}: the exercise needs {expected}.',
  'input.extraFile': 'Unexpected file {file}: only {expected} can be graded.',
  'input.badPath': 'File name {file} is not allowed (it must be a plain relative path inside the exercise).',
} as const;

const vi = {
  'grade.syntax': 'Không nạp được {file} (dòng {line}, cột {column}): {message}',
  'grade.load': 'Bộ test không nạp được code của bạn: {message}',
  'grade.stopped':
    'Lần chạy bị dừng sau {ms} ms: test "{test}" không bao giờ kết thúc. Hãy tìm một vòng lặp không có điểm dừng hoặc không bao giờ await (rule {rule}).',
  'grade.stoppedLoading': 'Lần chạy bị dừng sau {ms} ms trước khi có test nào xong: file của bạn có lặp vô hạn ngay khi được nạp không?',
  'grade.stoppedBetween':
    'Lần chạy bị dừng sau {ms} ms giữa hai test, và {count} test chưa bao giờ được chạy tới đều bị tính là trượt: sau "{test}" không còn gì chạy nữa (code của bạn có khởi động sau một test thứ gì không bao giờ trả về không?).',
  'grade.incomplete': 'Lần chạy kết thúc trước khi mọi test của bộ test được chạy: {count} trên {total} test chưa bao giờ được chạy tới, và bị tính là trượt.',
  'grade.unreached': '{count} test sau đó chưa bao giờ được chạy tới và bị tính là trượt.',
  'grade.stoppedConcurrent':
    'Lần chạy bị dừng sau {ms} ms: {count} test chạy song song không bao giờ kết thúc, test bắt đầu sớm nhất trong số đó là "{test}" (rule {rules}). Test nào trong số đó cũng có thể là test bị kẹt: hãy tìm một vòng lặp không có điểm dừng hoặc không bao giờ await.',
  'grade.unreachedAfterThem': '{count} test sau các test đó chưa bao giờ được chạy tới và bị tính là trượt.',
  'grade.limitMemory':
    'Lần chạy bị dừng: nó dùng quá {mb} MB bộ nhớ trong khi test "{test}" đang chạy. Hãy tìm dữ liệu cứ lớn lên mãi không dừng (rule {rule}).',
  'grade.limitMemoryLoading':
    'Lần chạy bị dừng: nó dùng quá {mb} MB bộ nhớ trước khi có test nào xong. File của bạn có tạo ra thứ gì khổng lồ ngay khi được nạp không?',
  'grade.crashed': 'Lần chạy test kết thúc mà không có kết quả (exit code {code}). Output: {output}',
  'grade.unhandled': 'Mọi test đều qua, nhưng có một lỗi thoát ra ngoài (unhandled rejection hoặc một timer ném lỗi): {message}',
  'grade.ok': 'Mọi rule đều đạt.',
  'test.timedOut':
    'Hết thời gian sau {ms} ms: lời gọi không bao giờ kết thúc (một promise không bao giờ settle, hoặc một lần chờ không bao giờ bị huỷ?). {details}',
  'test.hung': 'Vẫn đang chạy khi lần chạy bị dừng: một vòng lặp vô hạn không await sẽ chặn mọi thứ.',
  'test.notRun': 'Không chạy: lần chạy đã bị dừng trước test này.',
  'test.neverReached': 'Chưa bao giờ được chạy tới: lần chạy đã kết thúc trước khi test này được nạp hoặc chạy. Nó bị tính là trượt.',
  'test.limitMemory': 'Vẫn đang chạy khi lần chạy bị dừng vì dùng quá {mb} MB bộ nhớ.',
  'input.unknownExercise': 'Không có bài tập "{id}". Các bài tập hiện có: {known}.',
  'input.missingFile': 'Thiếu file {file}: bài tập cần {expected}.',
  'input.extraFile': 'File không mong đợi {file}: chỉ chấm được {expected}.',
  'input.badPath': 'Tên file {file} không hợp lệ (phải là một đường dẫn tương đối đơn giản bên trong bài tập).',
} as const;

export const gradingMessages = defineCatalog({ vi, en });
export type MessageKey = CatalogKey<typeof gradingMessages>;
// A function, not `gradingMessages.t`: a property read is kept by the bundler as a possible side effect,
// which would put both tables in every bundle that imports the grading core's face, used or not.
export const t: typeof gradingMessages.t = (lang, key, vars) => gradingMessages.t(lang, key, vars);
