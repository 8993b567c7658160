export { openFaultProxy, type FaultProxy } from './fault-proxy.js';
export { openLink, type Endpoint, type LinkOptions, type ProxyLink } from './proxy-link.js';
export {
  ActiveLinkFault,
  LINK_FAULT_KINDS,
  LinkFault,
  LinkList,
  LinkStats,
  type LinkFaultKind,
} from './link.schemas.js';
