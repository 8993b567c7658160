// What the terminal shows of the lab: the lab-mode warning at start, and the
// lab's lines of the ready banner. Pure text, like banner.ts.
import type { StackPorts } from '@effectively-once/lab-stack';
import { bannerLabel } from '../banner.js';
import type { LabSettings } from './config.js';

/**
 * The lines printed before anything starts when lab mode is on: the token is
 * shown because the user needs it for /admin/lab, and this is a local lab.
 *
 * @example
 * labModeNotice({ enabled: true, token: 'abc...' }); // ['FAULT INJECTION IS ON (lab mode) ...', ...]
 */
export function labModeNotice(faults: LabSettings['faults']): string[] {
  if (!faults.enabled) return [];
  return [
    'FAULT INJECTION IS ON (lab mode, STACK_FAULTS=true): never run this against data you care about.',
    `  FAULTS_TOKEN=${faults.token}  (send it as "Authorization: Bearer <token>" to /admin/lab)`,
    '  consumers take one message at a time with a 3 s lease and park after 5 retries; inventory runs twice.',
  ];
}

/**
 * The lab's lines of the ready banner: the console (through the gateway: its
 * own port is not meant for people), inventory-2, fault injection and lab-control.
 *
 * @example
 * labBannerLines({ host: '127.0.0.1', ports, faults: { enabled: false } }); // ['  console: ...', '  fault injection:     off']
 */
export function labBannerLines(input: {
  host: string;
  ports: StackPorts;
  faults: LabSettings['faults'];
}): string[] {
  const { ports, faults } = input;
  const url = (port: number): string => `http://${input.host}:${String(port)}`;
  return [
    ...(ports.console === undefined ? [] : [`${bannerLabel('console')}${url(ports.gateway)}/`]),
    ...(faults.enabled && ports.inventory2 !== undefined
      ? [
          `${bannerLabel('inventory-2')}${url(ports.inventory2)}  (same database, competing consumer)`,
        ]
      : []),
    `${bannerLabel('fault injection')}${faults.enabled ? `ON (FAULTS_TOKEN=${faults.token})` : 'off'}`,
    ...(faults.enabled && ports.labControl !== undefined
      ? [
          `${bannerLabel('lab control')}${url(ports.labControl)}  (network links: /lab/links, same token)`,
        ]
      : []),
  ];
}
