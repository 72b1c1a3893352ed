import { Migration } from '@mikro-orm/migrations';

export class Migration20261127114500 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "campaign_shipping" add column "seq" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "campaign_shipping" drop column "seq";`);
  }

}
