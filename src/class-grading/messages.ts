// Every message of `grade-class` (command line, gradebook CSV, HTML report), in both languages.
import { defineCatalog, type CatalogKey } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/langs.ts';

export type { Lang };

const en = {
  usage:
    'Usage: npm run grade-class -- --assignment FILE --submissions DIR [--out DIR] [--jobs N] [--shard K/N] [--json] [--lang vi|en] [--latest-wins] [--unsafe-no-sandbox]\n' +
    'Re-grades every submission (*.json) in DIR with the hidden tests, scores the quizzes, and writes a gradebook (CSV) and a report (HTML)\n' +
    'into --out (default: a folder next to DIR named DIR-graded). --jobs: parallel graders (default: the number of cores in the sandbox, cores - 1 with --unsafe-no-sandbox). --json: one summary object on stdout.\n' +
    'Two files for one learner are both graded and marked as a conflict; --latest-wins grades only the latest export instead.\n' +
    '--shard K/N: grade only share K of N of the learners; "merge" joins the shares (see docs/assignments.md).',
  'usage.unknownOption': 'Unknown option {option}.',
  'usage.missingAssignment': 'Which assignment? Give --assignment FILE (the file downloaded from the instructor page).',
  'usage.missingSubmissions': 'Which submissions? Give --submissions DIR (the folder holding the learners’ *.json files).',
  'usage.noAssignmentFile': 'The assignment file {file} does not exist.',
  'usage.assignmentNotJson': '{file} is not valid JSON: {detail}',
  'usage.assignmentInvalid': '{file} is not an assignment file (course-assignment, version 1): {detail}',
  'usage.unknownExercise': 'The assignment names the exercise "{id}", which this course does not have (known: {known}).',
  'usage.unknownQuiz': 'The assignment names the quiz "{id}", which this course does not have.',
  'usage.noDir': 'The submissions folder {dir} does not exist.',
  'usage.noSubmissions': 'There is no submission file (*.json) in {dir}.',
  'usage.badJobs': '--jobs must be a whole number of at least 1, not "{jobs}".',
  'usage.shards':
    'On several machines: npm run grade-class -- --assignment FILE --submissions DIR --shard K/N --out DIR (each machine writes shard-K-of-N.json),\n' +
    'then: npm run grade-class -- merge --assignment FILE --out DIR SHARD.json… (one gradebook and report, as one machine would write them).',
  'usage.badShard': '--shard must be K/N with 1 ≤ K ≤ N, not "{shard}".',
  'usage.noShards': 'Which shard files? Give every shard-K-of-N.json after merge.',
  'usage.badShardFile': '{file} cannot be read as JSON: {detail}',
  'merge.not-a-shard': '{file} is not a shard file of grade-class.',
  'merge.other-assignment': '{file} grades the assignment "{assignmentId}", not this one.',
  'merge.shard-count': '{file} is one of {count} shards, the others one of {expected}.',
  'merge.duplicate-shard': 'Shard {index} was given twice.',
  'merge.missing-shard': 'Shard {index} is missing: give every shard file.',
  'merge.different-files': '{file} read a different set of submission files from the other shards: grade every shard from the same folder.',
  'done.shard': 'Shard {index}/{count}: {graded} learners graded here. Shard file: {file}',
  'done.wroteLms': 'For Moodle, Canvas and Google Classroom: {files}',
  'sandbox.refuse':
    'Refusing to grade: submissions are untrusted code and no confinement is available on this machine ({reason}). Make confinement available, or rerun with --unsafe-no-sandbox to grade in plain child processes (only for submissions you trust).',
  'sandbox.notBuilt': 'this version of the grader has no confined sandbox',
  'sandbox.warn':
    '!!! WARNING: --unsafe-no-sandbox: the learners’ code runs as you, with your files and your network. Use it only for submissions you trust. !!!',
  'sandbox.confined': 'Grading in a confined sandbox ({mechanism}).',
  'progress.start': 'Grading {count} submission files for "{title}" with {jobs} parallel {jobs|grader|graders}…',
  'progress.graded': '{done}/{count} {email} {passed}/{exercises} exercises {seconds} s',
  'progress.errored': '{done}/{count} {email} could not be graded: {reason}',
  'progress.rejected': '{done}/{count} {file} rejected: {reason}',
  'done.defaultOut': 'No --out given: writing next to the submissions, into {dir}',
  'done.summary': '{graded} graded, {rejected} rejected, {errored} could not be graded, in {seconds} s.',
  'done.wrote': 'Gradebook (CSV): {csv}\nReport (HTML): {html}',
  'reject.tooBig': 'the file is {size} bytes, over the {max}-byte limit for a submission',
  'reject.notJson': 'not valid JSON (the first error is near character {position})',
  'reject.notSubmission': 'not a submission file (its "format" is not "course-submission")',
  'reject.badVersion': 'submission format version {version} is not supported (this grader reads version 1)',
  'reject.badFileName':
    'exercise {exercise} names a file by a path or with characters a file name may not have; only plain file names inside the exercise are accepted',
  'reject.invalid': 'the submission is damaged or incomplete ({detail})',
  'reject.wrongAssignment': 'made for another assignment ({got}; this one is {expected})',
  'reject.unknownExercise': 'it holds the exercise {id}, which is not part of this assignment',
  'reject.unknownQuiz': 'it holds the quiz {id}, which is not part of this assignment',
  'reject.extraFile': 'exercise {exercise} has no file {file} (it takes {expected})',
  'reject.missingFile': 'exercise {exercise} lacks its file {file}',
  'reject.duplicate': '{email} also handed in {kept}, exported later ({keptAt}); with --latest-wins only the latest export of each learner is graded',
  'reject.symlink': 'a symbolic link, not a file: links are never followed (copy the file itself into the folder)',
  'reject.special': 'not a regular file (a {kind}): only plain files are read',
  'reject.unreadable': 'the file could not be opened ({code})',
  'reject.crashed': 'checking this file failed ({error}: for example data nested too deeply); it is set aside and the rest of the class is graded',
  'problem.notSubmitted': '{id}: not handed in',
  'problem.runError': '{id}: {message}',
  'problem.gradingFailed': '{id}: could not be graded ({message})',
  'problem.quizMissing': '{id}: not answered',
  'problem.review': '{id}: uses {what}, which no solution needs: read this code before trusting its result',
  'problem.conflict':
    'conflict: {others} also claim(s) to be {email}; each file is graded and none replaces another: decide which is genuine (or grade again with --latest-wins)',
  'problem.tampering': '{id}: tampering suspected ({what}); the grade counts only what the learner’s code did through the grading protocol',
  'problem.notStrict':
    '{id}: graded in one confined process, tests and learner’s code together, not strictly (strict grading cannot carry this exercise: see docs/assignments.md); a result this code rewrote itself would not be noticed',
  'col.name': 'Name',
  'col.email': 'E-mail',
  'col.file': 'File',
  'col.status': 'Status',
  'col.exercise': '{id} (tests passed)',
  'col.brokenRules': '{id} (broken rules)',
  'col.quiz': '{id} (score)',
  'col.total': 'Total (%)',
  'col.submitted': 'Handed in',
  'col.exportedAt': 'Exported at',
  'col.solutionShown': 'Solution shown',
  'col.problems': 'Problems',
  'status.graded': 'graded',
  'status.rejected': 'rejected',
  'status.errored': 'could not be graded',
  'status.conflict': 'conflict: decide',
  'submitted.late': 'late',
  'submitted.onTime': 'on time',
  'cell.notHandedIn': 'not handed in',
  'html.title': 'Grades: {title}',
  'html.class': 'Class: {name}',
  'html.due': 'Due: {due}',
  'html.generated': 'Generated {at} from {files} submission files.',
  'html.counts': '{graded} graded · {rejected} rejected · {errored} could not be graded · {late} late',
  'html.lateBasis':
    '“Late” compares each submission’s exportedAt (the time the learner’s browser wrote into the file when they exported it) with the due date; it is not the time you received the file, and a learner’s wrong clock shifts it.',
  'html.totalBasis':
    'Total: the mean over the assignment’s items of each item’s share (tests passed for an exercise, right answers for a quiz), as a percentage; an item not handed in counts 0. Code is graded again here with the hidden tests; what the learner’s browser measured is ignored.',
  'html.gradebook': 'Gradebook',
  'html.gradebookCaption': 'One row per learner: tests passed per exercise, quiz scores, total and lateness',
  'html.rules': 'Broken rules across the class',
  'html.rulesCaption': '{exercise} ({id}): how many of the {graded} learners graded break each rule',
  'html.rule': 'Rule',
  'html.ruleTitle': 'What it checks',
  'html.failing': 'Learners breaking it',
  'html.noRun': '{count} {count|run|runs} did not complete (their code did not load or hung): see their problems.',
  'html.noGraded': 'No learner handed this exercise in.',
  'html.learners': 'Each learner',
  'html.allRules': 'every rule holds',
  'html.brokenRules': 'Broken rules:',
  'html.notSubmitted': 'not handed in',
  'html.quiz': 'quiz',
  'html.exercise': 'exercise',
  'html.rejected': 'Rejected submission files',
  'html.rejectedCaption': 'Files that were not graded, and why',
  'html.rejectedNone': 'No submission file was rejected.',
  'html.reason': 'Reason',
  'html.none': 'none',
} as const;

const vi = {
  usage:
    'Cách dùng: npm run grade-class -- --assignment FILE --submissions DIR [--out DIR] [--jobs N] [--shard K/N] [--json] [--lang vi|en] [--latest-wins] [--unsafe-no-sandbox]\n' +
    'Chấm lại mọi bài nộp (*.json) trong DIR bằng bộ test ẩn, chấm điểm quiz, rồi ghi sổ điểm (CSV) và báo cáo (HTML)\n' +
    'vào --out (mặc định: thư mục DIR-graded nằm cạnh DIR). --jobs: số bộ chấm chạy song song (mặc định: bằng số nhân trong sandbox, số nhân - 1 với --unsafe-no-sandbox). --json: in một object tổng kết ra stdout.\n' +
    'Hai file cùng một học viên đều được chấm và đánh dấu xung đột; --latest-wins thì chỉ chấm lần xuất mới nhất.\n' +
    '--shard K/N: chỉ chấm phần thứ K trong N phần học viên; "merge" gộp các phần lại (xem docs/assignments.md).',
  'usage.unknownOption': 'Không có tuỳ chọn {option}.',
  'usage.missingAssignment': 'Bài giao nào? Hãy đưa --assignment FILE (file tải về từ trang giảng viên).',
  'usage.missingSubmissions': 'Bài nộp ở đâu? Hãy đưa --submissions DIR (thư mục chứa các file *.json của học viên).',
  'usage.noAssignmentFile': 'Không có file bài giao {file}.',
  'usage.assignmentNotJson': '{file} không phải JSON hợp lệ: {detail}',
  'usage.assignmentInvalid': '{file} không phải file bài giao (course-assignment, phiên bản 1): {detail}',
  'usage.unknownExercise': 'Bài giao có bài tập "{id}", nhưng khoá học này không có bài tập đó (hiện có: {known}).',
  'usage.unknownQuiz': 'Bài giao có quiz "{id}", nhưng khoá học này không có quiz đó.',
  'usage.noDir': 'Không có thư mục bài nộp {dir}.',
  'usage.noSubmissions': 'Không có file bài nộp (*.json) nào trong {dir}.',
  'usage.badJobs': '--jobs phải là một số nguyên từ 1 trở lên, không phải "{jobs}".',
  'usage.shards':
    'Trên nhiều máy: npm run grade-class -- --assignment FILE --submissions DIR --shard K/N --out DIR (mỗi máy ghi shard-K-of-N.json),\n' +
    'rồi: npm run grade-class -- merge --assignment FILE --out DIR SHARD.json… (một sổ điểm và một báo cáo, y như khi chấm trên một máy).',
  'usage.badShard': '--shard phải có dạng K/N với 1 ≤ K ≤ N, không phải "{shard}".',
  'usage.noShards': 'File shard nào? Hãy đưa mọi file shard-K-of-N.json sau merge.',
  'usage.badShardFile': 'Không đọc được {file} dưới dạng JSON: {detail}',
  'merge.not-a-shard': '{file} không phải file shard của grade-class.',
  'merge.other-assignment': '{file} chấm bài giao "{assignmentId}", không phải bài giao này.',
  'merge.shard-count': '{file} là một trong {count} shard, còn các file khác là một trong {expected}.',
  'merge.duplicate-shard': 'Shard {index} được đưa hai lần.',
  'merge.missing-shard': 'Thiếu shard {index}: hãy đưa đủ mọi file shard.',
  'merge.different-files': '{file} đã đọc một tập file bài nộp khác với các shard còn lại: hãy chấm mọi shard từ cùng một thư mục.',
  'done.shard': 'Shard {index}/{count}: máy này chấm {graded} học viên. File shard: {file}',
  'done.wroteLms': 'Để nhập vào Moodle, Canvas và Google Classroom: {files}',
  'sandbox.refuse':
    'Từ chối chấm: bài nộp là code không đáng tin và máy này không có cơ chế cô lập nào ({reason}). Hãy bật cơ chế cô lập, hoặc chạy lại với --unsafe-no-sandbox để chấm trong các tiến trình con thông thường (chỉ với bài nộp bạn tin tưởng).',
  'sandbox.notBuilt': 'phiên bản bộ chấm này chưa có sandbox cô lập',
  'sandbox.warn':
    '!!! CẢNH BÁO: --unsafe-no-sandbox: code của học viên chạy với quyền của bạn, đọc được file và dùng được mạng của bạn. Chỉ dùng với bài nộp bạn tin tưởng. !!!',
  'sandbox.confined': 'Chấm trong sandbox cô lập ({mechanism}).',
  'progress.start': 'Đang chấm {count} file bài nộp của "{title}" với {jobs} bộ chấm song song…',
  'progress.graded': '{done}/{count} {email} {passed}/{exercises} bài tập {seconds} s',
  'progress.errored': '{done}/{count} {email} không chấm được: {reason}',
  'progress.rejected': '{done}/{count} {file} bị từ chối: {reason}',
  'done.defaultOut': 'Không có --out: ghi kết quả cạnh thư mục bài nộp, vào {dir}',
  'done.summary': 'Đã chấm {graded}, từ chối {rejected}, không chấm được {errored}, trong {seconds} s.',
  'done.wrote': 'Sổ điểm (CSV): {csv}\nBáo cáo (HTML): {html}',
  'reject.tooBig': 'file nặng {size} byte, vượt giới hạn {max} byte của một bài nộp',
  'reject.notJson': 'không phải JSON hợp lệ (lỗi đầu tiên ở gần ký tự thứ {position})',
  'reject.notSubmission': 'không phải file bài nộp ("format" của nó không phải "course-submission")',
  'reject.badVersion': 'không hỗ trợ phiên bản {version} của định dạng bài nộp (bộ chấm này đọc phiên bản 1)',
  'reject.badFileName':
    'bài tập {exercise} đặt tên file bằng một đường dẫn hoặc bằng ký tự không được có trong tên file; chỉ chấp nhận tên file đơn giản bên trong bài tập',
  'reject.invalid': 'bài nộp bị hỏng hoặc thiếu dữ liệu ({detail})',
  'reject.wrongAssignment': 'được làm cho một bài giao khác ({got}; bài giao này là {expected})',
  'reject.unknownExercise': 'có bài tập {id}, không thuộc bài giao này',
  'reject.unknownQuiz': 'có quiz {id}, không thuộc bài giao này',
  'reject.extraFile': 'bài tập {exercise} không có file {file} (chỉ nhận {expected})',
  'reject.missingFile': 'bài tập {exercise} thiếu file {file}',
  'reject.duplicate': '{email} còn nộp {kept}, xuất muộn hơn ({keptAt}); với --latest-wins, mỗi học viên chỉ được chấm lần xuất mới nhất',
  'reject.symlink': 'là symbolic link, không phải file: link không bao giờ được đi theo (hãy chép chính file đó vào thư mục)',
  'reject.special': 'không phải file thường (mà là {kind}): chỉ đọc file thường',
  'reject.unreadable': 'không mở được file ({code})',
  'reject.crashed': 'kiểm tra file này bị lỗi ({error}: ví dụ dữ liệu lồng nhau quá sâu); file được để riêng, cả lớp vẫn được chấm',
  'problem.notSubmitted': '{id}: chưa nộp',
  'problem.runError': '{id}: {message}',
  'problem.gradingFailed': '{id}: không chấm được ({message})',
  'problem.quizMissing': '{id}: chưa trả lời',
  'problem.review': '{id}: dùng {what}, thứ mà không lời giải nào cần: hãy đọc code này trước khi tin kết quả',
  'problem.conflict':
    'xung đột: {others} cũng nhận là {email}; file nào cũng được chấm và không file nào thay file nào: hãy quyết định file nào là thật (hoặc chấm lại với --latest-wins)',
  'problem.tampering': '{id}: nghi can thiệp vào việc chấm ({what}); điểm chỉ tính những gì code của học viên làm qua giao thức chấm',
  'problem.notStrict':
    '{id}: được chấm trong một process cô lập chung cho test và code của học viên, không strict (strict grading không chở được bài này: xem docs/assignments.md); nếu code tự sửa kết quả thì sẽ không bị phát hiện',
  'col.name': 'Họ tên',
  'col.email': 'E-mail',
  'col.file': 'Tệp',
  'col.status': 'Trạng thái',
  'col.exercise': '{id} (số test đạt)',
  'col.brokenRules': '{id} (rule vi phạm)',
  'col.quiz': '{id} (điểm)',
  'col.total': 'Tổng (%)',
  'col.submitted': 'Nộp',
  'col.exportedAt': 'Thời điểm xuất',
  'col.solutionShown': 'Đã xem lời giải',
  'col.problems': 'Vấn đề',
  'status.graded': 'đã chấm',
  'status.rejected': 'bị từ chối',
  'status.errored': 'không chấm được',
  'status.conflict': 'xung đột: cần quyết định',
  'submitted.late': 'trễ hạn',
  'submitted.onTime': 'đúng hạn',
  'cell.notHandedIn': 'chưa nộp',
  'html.title': 'Bảng điểm: {title}',
  'html.class': 'Lớp: {name}',
  'html.due': 'Hạn nộp: {due}',
  'html.generated': 'Tạo lúc {at} từ {files} file bài nộp.',
  'html.counts': 'Đã chấm {graded} · từ chối {rejected} · không chấm được {errored} · trễ hạn {late}',
  'html.lateBasis':
    '“Trễ hạn” so sánh exportedAt của từng bài nộp (thời điểm trình duyệt của học viên ghi vào file khi họ xuất) với hạn nộp; đó không phải lúc bạn nhận được file, và đồng hồ sai trên máy học viên sẽ làm nó lệch theo.',
  'html.totalBasis':
    'Tổng: trung bình trên các mục của bài giao, mỗi mục tính theo tỷ lệ (số test đạt với bài tập, số câu đúng với quiz), đổi ra phần trăm; mục chưa nộp tính 0. Code được chấm lại ở đây bằng bộ test ẩn; kết quả do trình duyệt của học viên đo bị bỏ qua.',
  'html.gradebook': 'Sổ điểm',
  'html.gradebookCaption': 'Mỗi học viên một dòng: số test đạt của từng bài tập, điểm quiz, tổng điểm và trễ hạn hay không',
  'html.rules': 'Các rule bị vi phạm trong cả lớp',
  'html.rulesCaption': '{exercise} ({id}): trong {graded} học viên được chấm, bao nhiêu người vi phạm từng rule',
  'html.rule': 'Rule',
  'html.ruleTitle': 'Điều được kiểm tra',
  'html.failing': 'Số học viên vi phạm',
  'html.noRun': '{count} lần chạy không hoàn tất (code không nạp được hoặc bị treo): xem phần vấn đề của họ.',
  'html.noGraded': 'Chưa học viên nào nộp bài tập này.',
  'html.learners': 'Từng học viên',
  'html.allRules': 'mọi rule đều đạt',
  'html.brokenRules': 'Các rule bị vi phạm:',
  'html.notSubmitted': 'chưa nộp',
  'html.quiz': 'quiz',
  'html.exercise': 'bài tập',
  'html.rejected': 'Các file bài nộp bị từ chối',
  'html.rejectedCaption': 'Những file không được chấm và lý do',
  'html.rejectedNone': 'Không có file bài nộp nào bị từ chối.',
  'html.reason': 'Lý do',
  'html.none': 'không có',
} as const;

/** The 'same in both' list: keys whose Vietnamese text is legitimately as plain as the English. */
export const classMessages = defineCatalog({ vi, en }, { sameInBoth: ['col.email', 'html.rule', 'html.quiz', 'problem.runError'] });
export type ClassKey = CatalogKey<typeof classMessages>;
export const cm = classMessages.t;

/** A message kept as data (key + values) so it can be shown in either language later. */
export interface Message {
  key: ClassKey;
  params: Record<string, string | number>;
}

export const say = (lang: Lang, m: Message) => cm(lang, m.key, m.params);
