export { findLockWaiter, waitForLockWaiter } from './lock-waits.js';
export { createTestDatabase, type TestDatabase } from './test-database.js';
