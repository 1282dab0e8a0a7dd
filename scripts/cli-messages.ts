// Every message of the workbook command line, in both languages.
import { defineCatalog, type CatalogKey } from '../src/i18n/catalog.ts';
import type { Lang } from '../src/i18n/langs.ts';

export type { Lang };

const en = {
  'usage.exercise': 'Usage:\n  npm run exercise -- list\n  npm run exercise -- start <id> [--force]\nOptions: --lang vi|en (default: COURSE_LANG, else vi)',
  'usage.check':
    'Usage: npm run check -- <id> [--from DIR] [--json] [--lang vi|en] [--strict]\nGrades the files in DIR (default workbook/<id>/).\n--strict: grade as grade-class does, your code in a confined process of its own (needs bubblewrap).',
  'check.strictUnavailable': '--strict needs confinement, which this machine does not have: {reason}',
  'check.tampering': 'Strict grading noticed: {what}',
  'usage.badLang': 'Unknown language "{lang}": use vi or en.',
  'usage.unknownOption': 'Unknown option {option}.',
  'usage.needsValue': 'Option {option} needs a value.',
  'usage.unexpected': 'Unexpected argument "{arg}".',
  'usage.notNumber': '{option} must be a whole number of at least {min} (got "{value}").',
  'usage.sim':
    'Usage:\n  npm run sim -- list\n  npm run sim -- <name> [--seed N] [--set key=value ...] [--json] [--charts] [--lang vi|en]\nLanguage: --lang, else COURSE_LANG, else vi.',
  'usage.serve':
    'Usage: npm run serve -- [--port 4321] [--dist dist] [--no-open]\nServes the built site and the local exercise runner on loopback, and opens the URL with its token.',
  'sim.missingName': 'Missing simulation name.',
  'sim.unknownSim': 'Unknown simulation "{name}". Available: {known}.',
  'sim.badSeed': '--seed must be an integer from 0 to {max} (got "{seed}").',
  'serve.noBuild': '{index} is missing: build the site first (npm run build).',
  'serve.badPort': '--port must be a port number (got "{port}").',
  'usage.missingId': 'Which exercise? Give its id (see `npm run exercise -- list`).',
  'usage.unknownCommand': 'Unknown command "{command}".',
  'usage.unknownExercise': 'Unknown exercise "{id}". Known exercises: {known}.',
  'list.header': 'Exercises:',
  'list.started': 'started in {dir}',
  'list.notStarted': 'not started',
  'start.done': 'Copied the starter of {id} into {dir}. Read {brief}, edit {files}, then run: npm run check -- {id}',
  'start.exists': '{dir} already holds your work ({files}); nothing was overwritten. Use --force to replace it with the starter.',
  'check.missingFile': 'Missing file {file}. Start the exercise first: npm run exercise -- start {id}',
  'check.missingFrom': 'Missing file {file}: {dir} must hold {expected}.',
  'check.title': '{title} ({id})',
  'check.pass': 'PASS',
  'check.fail': 'FAIL',
  'check.hint': 'hint',
  'check.observed': 'observed',
  'check.in': 'test',
  'check.typeErrors': 'Type errors (they do not fail the run, but fix them):',
  'check.summaryPass': 'All {rules} rules pass ({tests} tests) in {seconds} s.',
  'check.summaryFail': '{passed} of {rules} rules pass ({failedTests} of {tests} tests fail) in {seconds} s.',
  'check.error': 'The run did not complete:',
  'check.timedOut': 'timed out',
} as const;

const vi = {
  'usage.exercise':
    'Cách dùng:\n  npm run exercise -- list\n  npm run exercise -- start <id> [--force]\nTuỳ chọn: --lang vi|en (mặc định: COURSE_LANG, nếu không có thì vi)',
  'usage.check':
    'Cách dùng: npm run check -- <id> [--from DIR] [--json] [--lang vi|en] [--strict]\nChấm các file trong DIR (mặc định workbook/<id>/).\n--strict: chấm như grade-class, code của bạn chạy trong một process riêng bị cô lập (cần bubblewrap).',
  'check.strictUnavailable': '--strict cần cơ chế cô lập mà máy này không có: {reason}',
  'check.tampering': 'Strict grading phát hiện: {what}',
  'usage.badLang': 'Không hỗ trợ ngôn ngữ "{lang}": hãy dùng vi hoặc en.',
  'usage.unknownOption': 'Không có tuỳ chọn {option}.',
  'usage.needsValue': 'Tuỳ chọn {option} cần một giá trị.',
  'usage.unexpected': 'Đối số "{arg}" không được chờ đợi.',
  'usage.notNumber': '{option} phải là số nguyên không nhỏ hơn {min} (nhận được "{value}").',
  'usage.sim':
    'Cách dùng:\n  npm run sim -- list\n  npm run sim -- <tên> [--seed N] [--set khoá=giá-trị ...] [--json] [--charts] [--lang vi|en]\nNgôn ngữ: --lang, nếu không có thì COURSE_LANG, nếu không có nữa thì vi.',
  'usage.serve':
    'Cách dùng: npm run serve -- [--port 4321] [--dist dist] [--no-open]\nPhục vụ trang đã build và local runner chấm bài trên loopback, rồi mở URL kèm token.',
  'sim.missingName': 'Thiếu tên mô phỏng.',
  'sim.unknownSim': 'Không có mô phỏng "{name}". Các mô phỏng hiện có: {known}.',
  'sim.badSeed': '--seed phải là số nguyên từ 0 đến {max} (nhận được "{seed}").',
  'serve.noBuild': 'Không có {index}: hãy build trang trước (npm run build).',
  'serve.badPort': '--port phải là số cổng (nhận được "{port}").',
  'usage.missingId': 'Bài tập nào? Hãy đưa id của nó (xem `npm run exercise -- list`).',
  'usage.unknownCommand': 'Không có lệnh "{command}".',
  'usage.unknownExercise': 'Không có bài tập "{id}". Các bài tập hiện có: {known}.',
  'list.header': 'Các bài tập:',
  'list.started': 'đã bắt đầu trong {dir}',
  'list.notStarted': 'chưa bắt đầu',
  'start.done': 'Đã chép starter của {id} vào {dir}. Đọc {brief}, sửa {files}, rồi chạy: npm run check -- {id}',
  'start.exists': '{dir} đã có bài làm của bạn ({files}); không có gì bị ghi đè. Dùng --force để thay bằng starter.',
  'check.missingFile': 'Thiếu file {file}. Hãy bắt đầu bài tập trước: npm run exercise -- start {id}',
  'check.missingFrom': 'Thiếu file {file}: {dir} phải chứa {expected}.',
  'check.title': '{title} ({id})',
  'check.pass': 'ĐẠT',
  'check.fail': 'CHƯA ĐẠT',
  'check.hint': 'gợi ý',
  'check.observed': 'quan sát được',
  'check.in': 'test',
  'check.typeErrors': 'Lỗi kiểu (không làm lần chấm thất bại, nhưng hãy sửa):',
  'check.summaryPass': 'Cả {rules} rule đều đạt ({tests} test) trong {seconds} s.',
  'check.summaryFail': '{passed}/{rules} rule đạt ({failedTests}/{tests} test chưa qua) trong {seconds} s.',
  'check.error': 'Lần chạy không hoàn tất:',
  'check.timedOut': 'hết thời gian',
} as const;

export const cliMessages = defineCatalog({ vi, en }, { sameInBoth: ['check.title', 'check.in'] });
export type CliKey = CatalogKey<typeof cliMessages>;
export const msg = cliMessages.t;
