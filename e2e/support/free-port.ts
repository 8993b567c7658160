// A port nobody listens on right now, for a process a test or bench starts
// itself (the supervisor picks its own with STACK_PORTS=auto). The picker
// stays outside the kernel's ephemeral range where the machine leaves room
// (the kernel picks otherwise), so no outgoing connection can hold the port by
// the time the process binds it.
export { findFreePort as freePort } from '@effectively-once/postgres';
