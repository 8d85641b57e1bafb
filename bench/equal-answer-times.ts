// `node --import tsx bench/equal-answer-times.ts [samples]`: whether the answers that must not tell two cases
// apart (F8: a right and a wrong join code; an existing and an unknown e-mail at login, registration, password
// reset and confirmation re-send) also take the same time. A wall-clock property: the API tests keep the equal
// answers, this script the equal times. One request at a time, as someone timing the answers would send them,
// the two sides in turns (their order alternating each round) so a machine that slows down weighs on both
// alike, `samples` a side (default 200) after 5 unmeasured a side. Prints each pair's medians, quartiles and
// the ratio of medians; exits 1 when a ratio leaves 0.67–1.5.

import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { apiRequest, median, withApi } from './api-server.ts';

const SAMPLES = Number(process.argv[2] ?? 200);
const WARMUP = 5;
const PASSWORD = '벤치마크-비밀번호-2026!';

interface Pair {
  name: string;
  /** What a side sends in round `round` (negative rounds are the warm-up); resolves with the answer. */
  send: (side: 'a' | 'b', round: number) => Promise<{ status: number; body: string; ms: number }>;
  sides: [string, string];
}

function quartiles(values: number[]): string {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (f: number) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))]!.toFixed(1);
  return `${at(0.25)}–${at(0.75)}`;
}

const print = (line: string) => process.stdout.write(`${line}\n`);

async function main() {
  await withApi(
    {
      LOGIN_LIMIT_PER_IP_PER_MINUTE: '1000000',
      LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '1000000',
      ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000000',
      JOIN_CODE_ATTEMPTS_PER_IP_PER_HOUR: '1000000',
      MAILS_PER_ADDRESS_PER_HOUR: '1000000',
    },
    async ({ base, sql }) => {
      const [company] = await sql<{ id: string; join_code: string }>(
        "INSERT INTO companies (name, join_code) VALUES ('벤치 가입코드 회사', 'BENCH-JOIN-CODE-1') RETURNING id, join_code",
      );
      const timed = async (method: string, pathname: string, body: unknown) => {
        const started = performance.now();
        const response = await apiRequest(base, method, pathname, body);
        const text = await response.text();
        return { status: response.status, body: text, ms: performance.now() - started };
      };
      await timed('POST', '/api/v1/user/', {
        email: 'exists@bench.example',
        password: PASSWORD,
        name: '벤치',
      });
      await timed('POST', '/api/v1/user/', {
        email: 'pending@bench.example',
        password: PASSWORD,
        name: '벤치',
      });
      await sql("UPDATE users SET email_confirmed_at = now() WHERE email = 'exists@bench.example'");
      const captcha = async () => {
        const challenge = await (await fetch(`${base}/api/v1/captcha/challenge`)).json();
        const solution = await solveChallenge({ challenge, deriveKey });
        return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      };
      const pairs: Pair[] = [
        {
          name: 'registration with a join code (F8)',
          sides: ['right code', 'wrong code'],
          send: (side, round) =>
            timed('POST', '/api/v1/user/', {
              email: `join-${side}-${round}@elsewhere.example`,
              password: PASSWORD,
              name: '가입자',
              join_code: side === 'a' ? company!.join_code : `WRONG-${round}`,
            }),
        },
        {
          name: 'login',
          sides: ['existing e-mail', 'unknown e-mail'],
          send: async (side, round) => {
            const solved = await captcha();
            return timed('POST', '/api/v1/token/', {
              email: side === 'a' ? 'exists@bench.example' : `ghost-${round}@bench.example`,
              password: 'wrong-password-123',
              captcha: solved,
            });
          },
        },
        {
          name: 'registration',
          sides: ['taken e-mail', 'free e-mail'],
          send: (side, round) =>
            timed('POST', '/api/v1/user/', {
              email: side === 'a' ? 'exists@bench.example' : `newcomer-${round}@bench.example`,
              password: PASSWORD,
              name: '가입자',
            }),
        },
        {
          name: 'password reset request',
          sides: ['existing e-mail', 'unknown e-mail'],
          send: (side, round) =>
            timed('POST', '/api/v1/user/password/send-reset-email', {
              email: side === 'a' ? 'exists@bench.example' : `stranger-${round}@bench.example`,
            }),
        },
        {
          name: 'confirmation re-send',
          sides: ['pending e-mail', 'unknown e-mail'],
          send: (side, round) =>
            timed('POST', '/api/v1/user/email/register', {
              email: side === 'a' ? 'pending@bench.example' : `nobody-${round}@bench.example`,
            }),
        },
      ];
      let failed = false;
      print(`| pair | side | median ms | quartiles ms | ratio of medians (b ÷ a) | answers |`);
      print('| --- | --- | ---: | --- | ---: | --- |');
      for (const pair of pairs) {
        const times = { a: [] as number[], b: [] as number[] };
        const answers = new Set<string>();
        for (let round = -WARMUP; round < SAMPLES; round += 1) {
          const order = (round & 1 ? ['b', 'a'] : ['a', 'b']) as ('a' | 'b')[];
          for (const side of order) {
            const answer = await pair.send(side, round);
            answers.add(`${answer.status} ${answer.body}`);
            if (round >= 0) times[side].push(answer.ms);
          }
        }
        const ratio = median(times.b) / median(times.a);
        if (ratio < 0.67 || ratio > 1.5 || answers.size !== 1) failed = true;
        const sameAnswer = answers.size === 1 ? 'one answer' : `${answers.size} different answers`;
        print(
          `| ${pair.name} | ${pair.sides[0]} | ${median(times.a).toFixed(1)} | ${quartiles(times.a)} | | |`,
        );
        print(
          `| | ${pair.sides[1]} | ${median(times.b).toFixed(1)} | ${quartiles(times.b)} | ${ratio.toFixed(2)} | ${sameAnswer} |`,
        );
      }
      if (failed) process.exitCode = 1;
    },
  );
}

await main();
