import { type Kysely, sql } from "kysely";

// The tables for the whole product (PRODUCT.md). Later issues add columns with new migrations;
// never edit this file once it has run anywhere.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL,
      email_verified_at timestamptz,
      first_name text NOT NULL CHECK (char_length(first_name) BETWEEN 1 AND 50),
      last_name text NOT NULL DEFAULT '' CHECK (char_length(last_name) <= 50),
      nickname text NOT NULL CHECK (char_length(nickname) BETWEEN 2 AND 30),
      language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi')),
      phone_e164 text,
      profile_pic_key text,
      google_sub text UNIQUE,
      notify_activity boolean NOT NULL DEFAULT true,
      notify_application boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_key ON users (lower(email));

    -- The cookie carries a random id; only its SHA-256 is stored, so a database leak holds no live cookie.
    CREATE TABLE sessions (
      id_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      user_agent text
    );
    CREATE INDEX sessions_user_id_idx ON sessions (user_id);
    CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

    CREATE TABLE storytellers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      nickname text NOT NULL CHECK (char_length(nickname) BETWEEN 2 AND 30),
      first_name text NOT NULL CHECK (char_length(first_name) BETWEEN 1 AND 50),
      relationship text NOT NULL DEFAULT '',
      delivery_method text NOT NULL CHECK (delivery_method IN ('email', 'sms')),
      email text,
      phone_e164 text,
      time_zone text NOT NULL,
      language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi')),
      profile_pic_key text,
      unsubscribed_at timestamptz,
      email_undeliverable_at timestamptz,
      sms_consent text NOT NULL DEFAULT 'none' CHECK (sms_consent IN ('none', 'requested', 'granted', 'revoked')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (delivery_method <> 'email' OR email IS NOT NULL),
      CHECK (delivery_method <> 'sms' OR phone_e164 IS NOT NULL)
    );
    CREATE INDEX storytellers_owner_id_idx ON storytellers (owner_id, created_at);
    CREATE INDEX storytellers_email_idx ON storytellers (lower(email)) WHERE email IS NOT NULL;
    CREATE INDEX storytellers_phone_idx ON storytellers (phone_e164) WHERE phone_e164 IS NOT NULL;

    CREATE TABLE schedules (
      storyteller_id uuid PRIMARY KEY REFERENCES storytellers (id) ON DELETE CASCADE,
      first_prompt_date date NOT NULL,
      frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'bimonthly', 'monthly')),
      next_send_at timestamptz,
      paused_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- The scheduler's tick reads due schedules through this index only.
    CREATE INDEX schedules_due_idx ON schedules (next_send_at) WHERE next_send_at IS NOT NULL AND paused_at IS NULL;

    CREATE TABLE prompt_categories (
      id text PRIMARY KEY,
      position integer NOT NULL UNIQUE,
      name_en text NOT NULL,
      name_hi text NOT NULL
    );

    CREATE TABLE library_prompts (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      category_id text NOT NULL REFERENCES prompt_categories (id) ON DELETE CASCADE,
      position integer NOT NULL,
      text_en text NOT NULL,
      text_hi text NOT NULL,
      UNIQUE (category_id, position)
    );

    CREATE TABLE prompts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      storyteller_id uuid NOT NULL REFERENCES storytellers (id) ON DELETE CASCADE,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      library_prompt_id integer REFERENCES library_prompts (id) ON DELETE SET NULL,
      text text NOT NULL CHECK (char_length(text) BETWEEN 5 AND 300),
      is_custom boolean NOT NULL DEFAULT false,
      queue_position double precision NOT NULL,
      sent_at timestamptz,
      skipped_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- "Prompt is already scheduled": one queued copy of a text per Storyteller.
    CREATE UNIQUE INDEX prompts_queued_text_key ON prompts (storyteller_id, lower(text)) WHERE sent_at IS NULL;
    CREATE INDEX prompts_queue_idx ON prompts (storyteller_id, queue_position) WHERE sent_at IS NULL;
    CREATE INDEX prompts_sent_idx ON prompts (storyteller_id, sent_at DESC) WHERE sent_at IS NOT NULL;
    CREATE INDEX prompts_created_by_idx ON prompts (created_by);

    CREATE TABLE answers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      prompt_id uuid NOT NULL UNIQUE REFERENCES prompts (id) ON DELETE CASCADE,
      storyteller_id uuid NOT NULL REFERENCES storytellers (id) ON DELETE CASCADE,
      is_private boolean NOT NULL DEFAULT false,
      storage_key text NOT NULL UNIQUE,
      content_type text NOT NULL,
      byte_size bigint NOT NULL CHECK (byte_size > 0),
      duration_ms integer NOT NULL CHECK (duration_ms >= 0),
      playable_storage_key text UNIQUE,
      playable_content_type text,
      transcript text,
      transcript_status text NOT NULL DEFAULT 'pending' CHECK (transcript_status IN ('pending', 'done', 'none', 'failed')),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX answers_storyteller_idx ON answers (storyteller_id, created_at DESC);

    -- The send ledger: at most one send per (prompt, channel, purpose), whatever jobs retry.
    CREATE TABLE deliveries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      prompt_id uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
      channel text NOT NULL CHECK (channel IN ('email', 'sms')),
      purpose text NOT NULL DEFAULT 'prompt' CHECK (purpose IN ('prompt', 'resend')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'cancelled')),
      attempts integer NOT NULL DEFAULT 0,
      provider_message_id text,
      error text,
      scheduled_for timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (prompt_id, channel, purpose)
    );
    CREATE INDEX deliveries_provider_message_idx ON deliveries (provider_message_id) WHERE provider_message_id IS NOT NULL;

    -- What was shown when a Storyteller was asked to agree to texts, and what they replied.
    CREATE TABLE sms_consents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      storyteller_id uuid NOT NULL REFERENCES storytellers (id) ON DELETE CASCADE,
      phone_e164 text NOT NULL,
      text_shown text NOT NULL,
      reply text,
      status text NOT NULL CHECK (status IN ('requested', 'granted', 'revoked')),
      created_at timestamptz NOT NULL DEFAULT now(),
      replied_at timestamptz
    );
    CREATE INDEX sms_consents_storyteller_idx ON sms_consents (storyteller_id, created_at DESC);
    CREATE INDEX sms_consents_phone_idx ON sms_consents (phone_e164, created_at DESC);

    CREATE TABLE notifications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      type text NOT NULL,
      storyteller_id uuid REFERENCES storytellers (id) ON DELETE CASCADE,
      prompt_id uuid REFERENCES prompts (id) ON DELETE CASCADE,
      is_new boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC);
    CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE is_new;

    CREATE TABLE groups (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      storyteller_id uuid NOT NULL REFERENCES storytellers (id) ON DELETE CASCADE,
      name text NOT NULL CHECK (char_length(name) BETWEEN 2 AND 50),
      description text NOT NULL CHECK (char_length(description) BETWEEN 10 AND 60),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX groups_owner_idx ON groups (owner_id);
    CREATE INDEX groups_storyteller_idx ON groups (storyteller_id);

    CREATE TABLE group_members (
      group_id uuid NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('owner', 'collaborator')),
      joined_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (group_id, user_id)
    );
    CREATE INDEX group_members_user_idx ON group_members (user_id);

    CREATE TABLE group_invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      group_id uuid NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
      email text NOT NULL,
      invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      revoked_at timestamptz
    );
    CREATE UNIQUE INDEX group_invitations_open_key ON group_invitations (group_id, lower(email))
      WHERE accepted_at IS NULL AND revoked_at IS NULL;

    CREATE TABLE user_invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      invited_by uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      email text NOT NULL,
      group_id uuid REFERENCES groups (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX user_invitations_inviter_idx ON user_invitations (invited_by, created_at DESC);

    CREATE TABLE share_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      answer_id uuid NOT NULL REFERENCES answers (id) ON DELETE CASCADE,
      created_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    );
    CREATE INDEX share_links_answer_idx ON share_links (answer_id);

    -- The onboarding wizard keeps its steps here, so it works with plain form posts.
    CREATE TABLE onboarding_drafts (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      data jsonb NOT NULL DEFAULT '{}',
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    -- Every email and text Heirloom sends. The send job delivers each row through the configured
    -- provider; with no provider the row itself is the delivery (the built-in outbox, /dev/outbox).
    CREATE TABLE outbox_messages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      channel text NOT NULL CHECK (channel IN ('email', 'sms')),
      to_address text NOT NULL,
      subject text,
      text_body text NOT NULL,
      html_body text,
      headers jsonb NOT NULL DEFAULT '{}',
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
      provider text,
      provider_message_id text,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    );
    CREATE INDEX outbox_messages_created_idx ON outbox_messages (created_at DESC);

    CREATE TABLE contact_messages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
      email text NOT NULL,
      message text NOT NULL CHECK (char_length(message) BETWEEN 10 AND 5000),
      language text NOT NULL DEFAULT 'en',
      created_at timestamptz NOT NULL DEFAULT now()
    );

    -- rate-limiter-flexible's own layout (it is told the table exists).
    CREATE TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS rate_limits, contact_messages, outbox_messages, onboarding_drafts, share_links,
      user_invitations, group_invitations, group_members, groups, notifications, sms_consents, deliveries,
      answers, prompts, library_prompts, prompt_categories, schedules, storytellers, sessions, users CASCADE;
  `.execute(db);
}
