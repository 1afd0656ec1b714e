/* SPDX-License-Identifier: MIT */
/* Game messages and the log hook from C: two peers on the in-process network at 10% loss send
 * each other reliable messages (all arrive, in order, with their frame tags) and unreliable
 * ones; misuse returns codes with messages; an oversized message is dropped and the receiver's
 * log callback says why, at the level asked, with the user pointer given. */
#include "memory_match.h"

#define MESSAGES 200

typedef struct log_lines {
  int warn_oversize;   /* warn lines naming oversize */
  int below_level;     /* lines under the level asked: must be none */
  int count;
} log_lines;

static void on_log(void* user, int32_t level, const char* text) {
  log_lines* lines = (log_lines*)user;
  ++lines->count;
  if (level < SHOAL_LOG_WARN) ++lines->below_level;
  if (level == SHOAL_LOG_WARN && strstr(text, "oversize") != NULL) ++lines->warn_oversize;
}

static int build_world(shoal_world** out) {
  shoal_world_config config;
  shoal_object_state state;
  REQUIRE_OK(shoal_world_config_default(&config));
  REQUIRE_OK(shoal_world_create(&config, out));
  REQUIRE_OK(shoal_object_state_default(&state));
  state.position.y = 0.5f;
  state.position.x = -2;
  REQUIRE_OK(shoal_world_add_sphere(*out, 1, 0.5f, 1.0f, &state));
  state.position.x = 2;
  REQUIRE_OK(shoal_world_add_sphere(*out, 2, 0.5f, 1.0f, &state));
  return 0;
}

int main(void) {
  memory_match m;
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_peer_config configs[2];
  log_lines lines;
  shoal_event event;
  uint8_t payload[8];
  uint8_t big[2000];
  uint32_t next_expected = 0, sent = 0, unreliable = 0, unreliable_sent = 0;
  int frame, p, in_order = 1, tagged = 1;

  memset(&lines, 0, sizeof lines);
  memset(big, 1, sizeof big);
  REQUIRE_OK(memory_match_open(&m, 3, 20, 0.1f));
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    REQUIRE_OK(shoal_peer_config_default(&configs[p]));
    CHECK(configs[p].max_message_bytes == 1024 && configs[p].log_callback == NULL && configs[p].log_level == SHOAL_LOG_INFO);
    REQUIRE(build_world(&worlds[p]) == 0);
    REQUIRE_OK(shoal_memory_network_create_endpoint(m.network, (uint16_t)(p + 1), 2000, &transport));
    if (p == 0) {
      configs[p].log_callback = on_log;
      configs[p].log_user = &lines;
      configs[p].log_level = SHOAL_LOG_WARN;
    } else {
      configs[p].max_message_bytes = 4096;  /* so that it may send what the host refuses */
      configs[p].message_bytes_per_second = 65536;
    }
    REQUIRE_OK(shoal_peer_create_with_world(&configs[p], worlds[p], transport, &m.peers[p]));
  }
  {  /* a bad level is refused with a message */
    shoal_transport* transport = NULL;
    shoal_peer* bad = NULL;
    shoal_peer_config config = configs[1];
    config.log_level = 9;
    REQUIRE_OK(shoal_memory_network_create_endpoint(m.network, 9, 2000, &transport));
    CHECK(shoal_peer_create_with_world(&config, worlds[1], transport, &bad) == SHOAL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(shoal_last_error(), "log_level") != NULL);
  }
  CHECK(shoal_peer_send_message(m.peers[1], 0, payload, 4, SHOAL_DELIVERY_RELIABLE, SHOAL_NO_FRAME) == SHOAL_ERROR_INVALID_STATE);
  REQUIRE_OK(memory_match_connect(&m));

  CHECK(shoal_peer_send_message(m.peers[1], 1, payload, 4, SHOAL_DELIVERY_RELIABLE, SHOAL_NO_FRAME) == SHOAL_ERROR_INVALID_ARGUMENT);
  CHECK(shoal_peer_send_message(m.peers[1], 0, payload, 4, 7, SHOAL_NO_FRAME) == SHOAL_ERROR_INVALID_ARGUMENT);
  CHECK(shoal_peer_send_message(m.peers[1], 0, NULL, 4, SHOAL_DELIVERY_RELIABLE, SHOAL_NO_FRAME) == SHOAL_ERROR_NULL_ARGUMENT);
  CHECK(shoal_peer_event_message(m.peers[0], NULL, NULL, NULL) == SHOAL_ERROR_INVALID_STATE);
  lines.count = lines.below_level = 0;
  /* Oversized for the host: dropped there, counted, and logged as a warning. */
  CHECK(shoal_peer_send_message(m.peers[1], 0, big, sizeof big, SHOAL_DELIVERY_RELIABLE, SHOAL_NO_FRAME) == 1);

  for (frame = 0; frame < 1200 && next_expected < MESSAGES; ++frame) {
    int32_t now = 0;
    shoal_peer_frame(m.peers[1], &now);
    for (p = 0; p < 4 && sent < MESSAGES; ++p) {
      memcpy(payload, &sent, 4);
      if (shoal_peer_send_message(m.peers[1], 0, payload, sizeof payload, SHOAL_DELIVERY_RELIABLE, (int32_t)sent) == 1) ++sent;
    }
    unreliable_sent += shoal_peer_send_message(m.peers[1], SHOAL_NO_PEER, payload, 3, SHOAL_DELIVERY_UNRELIABLE, now) == 1;
    REQUIRE_OK(memory_match_frame(&m));
    while (shoal_peer_poll_event(m.peers[0], &event) == 1) {
      const uint8_t* bytes = NULL;
      size_t size = 0;
      int32_t reliable = -1;
      uint32_t n = 0;
      if (event.kind != SHOAL_EVENT_MESSAGE) continue;
      REQUIRE_OK(shoal_peer_event_message(m.peers[0], &bytes, &size, &reliable));
      CHECK(event.peer == 1);
      if (!reliable) {
        unreliable += size == 3;
        continue;
      }
      REQUIRE(size == sizeof payload);
      memcpy(&n, bytes, 4);
      in_order = in_order && n == next_expected;
      tagged = tagged && event.frame == (int32_t)n;
      ++next_expected;
    }
  }
  CHECK(next_expected == MESSAGES);
  CHECK(in_order);
  CHECK(tagged);
  CHECK(unreliable_sent > 20);
  CHECK(unreliable * 2 > unreliable_sent);  /* most of the unreliable ones came through 10% loss */
  CHECK(lines.warn_oversize == 1);
  CHECK(lines.below_level == 0);

  /* The game's counters in C: what peer 1 sent, what peer 0 took in and still holds. */
  {
    shoal_game_stats sender, receiver;
    REQUIRE_OK(shoal_peer_game_stats(m.peers[1], &sender));
    REQUIRE_OK(shoal_peer_game_stats(m.peers[0], &receiver));
    CHECK(sender.messages_sent == sent + (uint64_t)unreliable_sent + 1);  /* the oversized one left too */
    CHECK(receiver.messages_received == (uint64_t)next_expected + (uint64_t)unreliable);  /* each one polled */
    CHECK(receiver.messages_queued == 0);  /* every event was polled */
    CHECK(sender.pace > 0.5f && sender.pace <= 1.0f);
    CHECK(shoal_peer_game_stats(m.peers[0], NULL) == SHOAL_ERROR_NULL_ARGUMENT);
  }

  for (p = 0; p < 2; ++p) {
    shoal_peer_destroy(m.peers[p]);
    shoal_world_destroy(worlds[p]);
  }
  shoal_memory_network_destroy(m.network);
  return check_exit_status();
}
