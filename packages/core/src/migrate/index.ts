export type {
  MigrateMessagesOptions,
  MigrateMessagesResult,
  MigrationVersion,
} from './migrate-messages.js';
export { detectMessageVersion, MessageMigrator, migrateMessages } from './migrate-messages.js';
export type { MigrationIssue } from './migration-issue.js';
export { IssueSink } from './migration-issue.js';
export type { V10Message } from './v09-v10.js';
export { upgradeV09ToV10, V10_BASIC_CATALOG_ID, V10_VERSION, V10Downgrader } from './v09-v10.js';
