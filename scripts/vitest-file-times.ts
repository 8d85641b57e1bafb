import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A Vitest reporter that writes how long each test file took, per project, to the file named by
 * VITEST_FILE_TIMES (default test-results/vitest-files.json): `npm test` prints the slowest of them, and
 * docs/testing.md reads where the suite's time goes from it. A file's time is its import and collection plus
 * every test and hook in it.
 */
export default class FileTimesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return {
        project: module.project.name,
        file: path.relative(process.cwd(), module.moduleId),
        seconds: Number(((diagnostic.collectDuration + diagnostic.duration) / 1000).toFixed(1)),
        state: module.state(),
      };
    });
    rows.sort((a, b) => b.seconds - a.seconds);
    const target = process.env.VITEST_FILE_TIMES ?? path.join('test-results', 'vitest-files.json');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, `${JSON.stringify(rows, null, 1)}\n`);
  }
}
