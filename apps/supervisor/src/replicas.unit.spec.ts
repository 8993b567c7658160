import { describe, expect, it } from 'vitest';
import {
  extraReplicas,
  fixedReplicaPort,
  ONE_EACH,
  parseReplicaCounts,
  replicaName,
} from './replicas.js';

describe('STACK_REPLICAS', () => {
  it('given some services with counts, then those run that many times and the others once', () => {
    expect(parseReplicaCounts('order=2, payment=3')).toEqual({
      order: 2,
      inventory: 1,
      payment: 3,
      notification: 1,
    });
    expect(parseReplicaCounts('')).toEqual(ONE_EACH);
  });

  it('given a bad entry, then it is refused naming the entry and the rule', () => {
    expect(() => parseReplicaCounts('payment:2')).toThrow('"payment:2" is not <service>=<count>');
    expect(() => parseReplicaCounts('gateway=2')).toThrow('"gateway" cannot run as replicas');
    expect(() => parseReplicaCounts('payment=0')).toThrow('payment=0: the count must be 1 to 8');
    expect(() => parseReplicaCounts('payment=9')).toThrow('the count must be 1 to 8');
    expect(() => parseReplicaCounts('order=2,order=3')).toThrow('order is given twice');
  });

  it('names the first replica after its service and the others by number, 100 ports apart', () => {
    expect([replicaName('payment', 1), replicaName('payment', 2)]).toEqual([
      'payment',
      'payment-2',
    ]);
    expect([fixedReplicaPort(3003, 1), fixedReplicaPort(3003, 3)]).toEqual([3003, 3203]);
    expect(extraReplicas(parseReplicaCounts('inventory=3,order=2'))).toEqual([
      { name: 'order-2', service: 'order', n: 2 },
      { name: 'inventory-2', service: 'inventory', n: 2 },
      { name: 'inventory-3', service: 'inventory', n: 3 },
    ]);
  });
});
