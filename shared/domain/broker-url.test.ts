import { describe, expect, it } from 'vitest';
import { BROKER_URL_HTTPS_REQUIRED, brokerUrlProblem } from './broker-url';

describe('brokerUrlProblem', () => {
  it('accepts https to any host', () => {
    expect(brokerUrlProblem('https://api.broker.example/v1')).toBeNull();
    expect(brokerUrlProblem('https://10.0.0.7:8443/v1')).toBeNull();
  });

  it('accepts plain http only to this machine: 127.0.0.1, localhost and ::1', () => {
    expect(brokerUrlProblem('http://127.0.0.1:8750/v1')).toBeNull();
    expect(brokerUrlProblem('http://localhost:8750/v1')).toBeNull();
    expect(brokerUrlProblem('http://LOCALHOST:8750/v1')).toBeNull();
    expect(brokerUrlProblem('http://[::1]:8750/v1')).toBeNull();
  });

  it('refuses plain http to any other host, including names that merely start like loopback', () => {
    for (const url of [
      'http://broker.example/v1',
      'http://192.168.1.20:8750/v1',
      'http://localhost.evil.example/v1',
      'http://127.0.0.1.nip.io/v1',
      'http://user@broker.example/v1',
    ]) {
      expect(brokerUrlProblem(url), url).toBe(BROKER_URL_HTTPS_REQUIRED);
    }
  });

  it('refuses other schemes and says what a valid URL looks like when it is not one', () => {
    expect(brokerUrlProblem('ws://127.0.0.1:8750/v1')).toBe(BROKER_URL_HTTPS_REQUIRED);
    expect(brokerUrlProblem('broker.example/v1')).toMatch(/^Broker URL is not a valid URL/);
  });
});
