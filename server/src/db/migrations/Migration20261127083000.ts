import { Migration } from '@mikro-orm/migrations';

/** When each signal key was last written, so idle sessions and sender keys can be pruned (connections.key-retention.ts). */
export class Migration20261127083000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "channel_auth_keys" add column "updated_at" timestamptz not null default now();`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "channel_auth_keys" drop column "updated_at";`);
  }

}
