/**
 * A vitest reporter for CI logs: each failure's reason is printed the moment its test (or its file's hook)
 * fails, next to the line that marks it failed. The default reporter keeps the reasons for its summary at
 * the very end of a long log, and a CI view that shows only the part around the first failure then shows
 * which tests failed but never why (stop 29's run: 29 tests failed in milliseconds, no reason in view).
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

const LIMIT = 1_500;

interface ReportedError {
  name?: string;
  message?: string;
  stack?: string;
}

function describeErrors(errors: ReadonlyArray<ReportedError>): string {
  return errors
    .map((error) => {
      // The runner's own frames say nothing about the failure.
      const text = (error.stack ?? `${error.name ?? 'Error'}: ${error.message ?? ''}`)
        .split('\n')
        .filter((line) => !/node_modules[\\/]vitest[\\/]|^\s+at new Promise/.test(line))
        .join('\n');
      return text.length > LIMIT ? `${text.slice(0, LIMIT)} …` : text;
    })
    .join('\n');
}

export default class FailuresNow implements Reporter {
  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    if (result.state !== 'failed') return;
    process.stdout.write(
      `\nFAILED ${testCase.module.relativeModuleId} > ${testCase.fullName}\n${describeErrors(result.errors)}\n\n`,
    );
  }

  onTestModuleEnd(testModule: TestModule): void {
    const errors = testModule.errors();
    if (errors.length === 0) return;
    process.stdout.write(`\nFAILED ${testModule.relativeModuleId} (outside its tests)\n${describeErrors(errors)}\n\n`);
  }
}
