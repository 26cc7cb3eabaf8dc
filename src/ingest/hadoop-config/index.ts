// Importing Hadoop configuration files (yarn-site.xml, capacity-scheduler.xml, the FairScheduler
// allocation file) into rmreplay's cluster model: the public surface of this folder.

export { FINDINGS_KEPT, FindingList, formatFindings } from './findings.js';
export type { ConfigFinding, FindingCount, FindingKind, Findings } from './findings.js';
export { HadoopConfigError, MAX_HADOOP_XML_BYTES, parseHadoopConfiguration, parseXmlDocument, readHadoopConfiguration, readHadoopXmlText } from './xml.js';
export type { HadoopConfiguration, HadoopProperty, XmlElement } from './xml.js';
export { parseFairResource } from './values.js';
export type { FairResource } from './values.js';
export { DEFAULT_CONTEXT, FAIR_PREEMPTION, MONITOR_ENABLE } from './known-properties.js';
export type { ImportContext } from './known-properties.js';
export { importYarnSite, NODE_DEFAULTS, schedulerTypeOfYarnSite, yarnSiteContext } from './yarn-site.js';
export type { YarnSiteImport, YarnSiteOptions } from './yarn-site.js';
export { importCapacityScheduler } from './capacity-scheduler.js';
export type { CapacitySchedulerImport, CapacitySchedulerOptions } from './capacity-scheduler.js';
export { hasPlacementPolicy, importFairScheduler, parseAllocationFile } from './fair-scheduler.js';
export type { FairSchedulerImport, FairSchedulerOptions } from './fair-scheduler.js';
export { loadClusterWithHadoopConfig } from './cluster.js';
export type { HadoopClusterRequest, HadoopClusterResult } from './cluster.js';
export { preemptionNotes } from './preemption-notes.js';
