// SPDX-License-Identifier: MIT
#include "launcher.hpp"

#include <algorithm>
#include <filesystem>
#include <chrono>
#include <cstring>
#include <functional>
#include <utility>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "arena.hpp"
#include "peer_report.hpp"
#include "process.hpp"
#include "relay_process.hpp"
#include "report.hpp"
#include "shoal/peer.hpp"
#include "shoal/security.hpp"
#include "timeline.hpp"

namespace lan_match {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kStartupAllowance = std::chrono::seconds(20);  // discovery, joining, sanitizers
constexpr auto kExitWait = std::chrono::seconds(5);           // for peers told to quit

struct Child {
  int index = 0;
  std::optional<shoal::samples::ChildProcess> process;  // stdin and stdout piped to us
  std::string partial_line;
  SampleReader reader;
  std::vector<PeerSample> seconds;  // per-second samples, in frame order
  std::optional<PeerSample> final;
  std::optional<std::string> failure;
  bool exited = false;
  bool killed = false;  // on purpose, and not (yet) restarted: out of the verdict
  bool kicked = false;  // kicked and banned: out of the verdict, but it runs on, coming back
  std::optional<Clock::time_point> restarted_at;  // until its new process joined

  bool running() const { return !exited && !failure; }
  bool out_of_verdict() const { return killed || kicked; }
  bool done() const { return final.has_value() || failure.has_value() || out_of_verdict(); }
  /// Starts over as a new process (after a kill): nothing of the old one counts.
  void reset() {
    const int keep = index;
    *this = Child{};
    index = keep;
  }
};

// A planned kill's bookkeeping: the report's entry, and who still has to see it reowned.
struct KillInProgress {
  FaultReport report;
  Clock::time_point killed_at;
  std::vector<int> survivors;  // launched indices yet to say "reowned"
};

std::vector<std::string> peer_arguments(const Options& o, const std::string& self_path, int index) {
  std::vector<std::string> args = peer_command(o, self_path, index);
  args.insert(args.end(), {"--peer", index == 0 ? "--host" : "--join",
      "--index", std::to_string(index), "--session", o.session,
      "--discovery-port", std::to_string(o.discovery_port), "--peers", std::to_string(o.peers),
      "--objects", std::to_string(o.objects), "--seconds", fmt::format("{}", o.seconds),
      "--settle-seconds", fmt::format("{}", o.settle_seconds), "--seed", std::to_string(o.seed),
      "--loss", fmt::format("{}", o.loss), "--latency-ms", fmt::format("{}", o.latency_ms),
      "--jitter-ms", fmt::format("{}", o.jitter_ms), "--duplicate", fmt::format("{}", o.duplicate),
      "--reorder", fmt::format("{}", o.reorder), "--loopback-discovery",
      "--physics", shoal::samples::name(o.physics), "--projectiles", std::to_string(o.projectiles)});
  if (o.insecure) args.push_back("--insecure");
  if (o.relay) {
    args.push_back("--relay");
    args.push_back(shoal::to_string(*o.relay));
  }
  if (!o.record_dir.empty()) {
    args.push_back("--record");
    args.push_back(o.record_dir);
  }
  if (const int timeout = peer_timeout_ms(o); timeout > 0) {
    args.push_back("--peer-timeout-ms");
    args.push_back(std::to_string(timeout));
  }
  if (const int grace = rejoin_grace_ms(o); grace >= 0) {
    args.push_back("--rejoin-grace-ms");
    args.push_back(std::to_string(grace));
  }
  if (o.misreport_peer == index) {
    args.push_back("--misreport-peer");
    args.push_back(std::to_string(index));
  }
  return args;
}

// `credentials` (empty: none) reach the peer in its environment (kCredentialsVariable), never on
// its command line, which every user of the machine can read.
void spawn(Child& child, const std::vector<std::string>& args, const std::string& credentials) {
  shoal::samples::ChildOptions launch;
  launch.pipe_input = launch.pipe_output = true;
  if (credentials.empty()) {
    launch.unset_environment.emplace_back(kCredentialsVariable);
  } else {
    launch.set_environment.emplace_back(kCredentialsVariable, credentials);
  }
  child.process.emplace(args, launch);
}

// The report's entry of a fault done to `c` (in the match) at `at_s`.
FaultReport fault_of(const Child& c, double at_s) {
  FaultReport report;
  report.index = c.index;
  report.peer = *c.reader.peer;
  report.killed_at_s = at_s;
  return report;
}

std::vector<PeerFault> by_time(std::vector<PeerFault> faults) {
  std::stable_sort(faults.begin(), faults.end(), [](const PeerFault& a, const PeerFault& b) { return a.at_s < b.at_s; });
  return faults;
}

class Launcher final : public MatchView {
 public:
  Launcher(const Options& options, const std::string& self_path, bool quiet)
      : options_(options), self_path_(self_path), quiet_(quiet), started_(Clock::now()), arena_(arena_for(options.peers, options.objects)),
        bodies_(static_cast<int>(all_bodies(arena_).size())), timeline_(timeline_for(options, shoal::PeerConfig{}.tick_hz)) {
    if (options_.relay_restart_at >= 0) {  // the launcher's own relay, which it restarts
      relay_.emplace(sibling_relay_path(), options_.relay ? options_.relay->port : std::uint16_t{0});
      options_.relay = shoal::Address{"127.0.0.1", relay_->port()};
    }
    if (!quiet_) print_banner();
    children_.resize(static_cast<std::size_t>(options.peers));
    for (int i = 0; i < options.peers; ++i) {
      Child& child = children_[static_cast<std::size_t>(i)];
      child.index = i;
      spawn(child, peer_arguments(options_, self_path, i), invite(i));
    }
  }

  ~Launcher() { stop_children(); }

  // Fresh credentials for launched peer `index` (none with --insecure), kept for a kick.
  std::string invite(int index) {
    if (options_.insecure) return {};
    invitations_.resize(children_.size());
    invitations_[static_cast<std::size_t>(index)] = authority_.invite();
    return invitations_[static_cast<std::size_t>(index)].to_text();
  }

  const MatchReport& report() const { return report_; }

  int run() {
    // A match the host slows down (PeerStats::pace) takes longer to reach its last frame.
    const auto launched = Clock::now();
    auto deadline = [&] {
      return launched + kStartupAllowance +
             std::chrono::duration<double>(timeline_.seconds_at(timeline_.final_frame()) / slowest_pace() + 2);
    };
    while (!all_done() && Clock::now() < deadline()) {
      read_children(100);
      reap_children();
      apply_faults();
      follow_faults();
      if (on_tick_) on_tick_(*this);
      print_complete_seconds(false);
    }
    for (Child& child : children_) {
      if (!child.done()) child.failure = fmt::format("peer process {} did not report in time (hung)", child.index);
    }
    print_complete_seconds(true);
    stop_children();
    return finish();
  }

  void set_watcher(MatchWatcher watcher) { on_tick_ = std::move(watcher); }
  float slowest_pace() const {
    float slowest = 1;
    for (const Child& c : children_) {
      for (const PeerSample& s : c.seconds) slowest = std::min(slowest, s.figures.pace);
    }
    return std::max(slowest, shoal::PaceConfig{}.min_rate);
  }
  double seconds_since_launch() const override { return std::chrono::duration<double>(Clock::now() - started_).count(); }
  int launched() const override { return static_cast<int>(children_.size()); }
  shoal::samples::ProcessId pid_of(int index) const override {
    const Child& c = children_[static_cast<std::size_t>(index)];
    return c.running() && !c.killed && c.process ? c.process->id() : -1;
  }
  const PeerSample* newest_sample(int index) const override {
    const Child& c = children_[static_cast<std::size_t>(index)];
    return c.seconds.empty() ? nullptr : &c.seconds.back();
  }
  float newest_divergence() const override { return rows_.empty() ? 0 : rows_.back().max_position_error_m; }

 private:
  // Kills and restarts whose time has come (Options::kills, restarts), each once.
  void apply_faults() {
    const double now_s = seconds_since_launch();
    for (; next_kill_ < kill_plan_.size() && kill_plan_[next_kill_].at_s <= now_s; ++next_kill_) {
      kill_peer(children_[static_cast<std::size_t>(kill_plan_[next_kill_].index)]);
    }
    if (relay_ && !relay_restarted_ && options_.relay_restart_at <= now_s) {
      relay_->restart();
      relay_restarted_ = true;
      if (!quiet_) fmt::print("t={:>3.0f}s | restarted the relay\n", seconds_since_launch());
    }
    for (; next_restart_ < restart_plan_.size() && restart_plan_[next_restart_].at_s <= now_s; ++next_restart_) {
      restart_peer(children_[static_cast<std::size_t>(restart_plan_[next_restart_].index)]);
    }
    for (; next_kick_ < kick_plan_.size() && kick_plan_[next_kick_].at_s <= now_s; ++next_kick_) {
      kick_peer(children_[static_cast<std::size_t>(kick_plan_[next_kick_].index)]);
    }
  }

  // --kick-peer: the match's authority revokes the victim's invitation, and a member in the
  // match (the host while it is there) applies it; the survivors watch its objects as after a kill.
  void kick_peer(Child& victim) {
    const auto in_match = [](const Child& c) { return c.running() && !c.out_of_verdict() && c.reader.peer; };
    const auto applier = std::find_if(children_.begin(), children_.end(),
                                      [&](const Child& c) { return &c != &victim && in_match(c); });
    if (!in_match(victim) || applier == children_.end()) {
      if (!victim.failure) victim.failure = fmt::format("peer process {} was not in the match when it was to be kicked", victim.index);
      return;
    }
    const double at_s = seconds_since_launch();
    const shoal::Revocation revocation = authority_.revoke(invitations_[static_cast<std::size_t>(victim.index)].peer_key(),
                                                           fmt::format("kicked by shoal-lan-match at {:.1f} s", at_s));
    applier->process->write(fmt::format("revoke {}\n", revocation.to_text()));
    KillInProgress kick{fault_of(victim, at_s), Clock::now(), {}};
    kick.report.kicked = true;
    victim.kicked = true;
    const std::string notice = fmt::format("killed {}\n", *victim.reader.peer);  // watch its objects
    for (Child& c : children_) {
      if (&c == &victim || !in_match(c)) continue;
      c.process->write(notice);
      kick.survivors.push_back(c.index);
    }
    if (!quiet_) fmt::print("t={:>3.0f}s | kicked peer #{} (id {})\n", at_s, victim.index, kick.report.peer);
    kills_.push_back(std::move(kick));
  }

  void kill_peer(Child& victim) {
    if (!victim.running() || victim.killed || !victim.reader.peer) {
      if (!victim.failure) victim.failure = fmt::format("peer process {} was not in the match when it was to be killed", victim.index);
      return;
    }
    victim.process->kill();
    const Clock::time_point killed_at = Clock::now();
    KillInProgress kill{fault_of(victim, seconds_since_launch()), killed_at, {}};
    victim.exited = true;
    victim.killed = true;
    close_pipes(victim);
    const std::string notice = fmt::format("killed {}\n", *victim.reader.peer);
    for (Child& c : children_) {
      if (!c.running() || c.killed || !c.reader.peer) continue;
      c.process->write(notice);
      kill.survivors.push_back(c.index);
    }
    if (!quiet_) fmt::print("t={:>3.0f}s | killed peer #{} (id {})\n", kill.report.killed_at_s, victim.index, kill.report.peer);
    kills_.push_back(std::move(kill));
  }

  void restart_peer(Child& c) {
    const auto fault = std::find_if(kills_.rbegin(), kills_.rend(), [&](const KillInProgress& k) {
      return k.report.index == c.index && k.report.restarted_at_s < 0;
    });
    if (!c.killed || fault == kills_.rend()) return;  // its kill failed: that is reported already
    c.reset();
    Options joiner = options_;
    spawn(c, peer_arguments(joiner, self_path_, c.index), invite(c.index));
    c.restarted_at = Clock::now();
    fault->report.restarted_at_s = seconds_since_launch();
    if (!quiet_) fmt::print("t={:>3.0f}s | restarted peer #{}\n", fault->report.restarted_at_s, c.index);
  }

  // Takes the survivors' "reowned" lines and restarted peers' joins into the fault reports.
  void follow_faults() {
    for (Child& c : children_) {
      for (const SampleReader::Reowned& r : c.reader.reowned) {
        for (KillInProgress& k : kills_) {
          const auto survivor = std::find(k.survivors.begin(), k.survivors.end(), c.index);
          if (k.report.peer != r.dead || survivor == k.survivors.end()) continue;
          const auto kill_us = std::chrono::duration_cast<std::chrono::microseconds>(k.killed_at.time_since_epoch()).count();
          k.report.reowned_ms = std::max(k.report.reowned_ms, (r.at_us - kill_us + 999) / 1000);
          k.survivors.erase(survivor);
        }
      }
      c.reader.reowned.clear();
      if (c.restarted_at && c.reader.peer) {
        for (KillInProgress& k : kills_) {
          if (k.report.index == c.index && k.report.restarted_at_s >= 0 && k.report.rejoin_ms < 0) {
            k.report.rejoin_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - *c.restarted_at).count();
          }
        }
        c.restarted_at.reset();
      }
    }
  }

  // The fault reports: a survivor that died or never said "reowned" leaves reowned_ms at -1
  // unless it died (then the others' answers count).
  void finish_faults() {
    for (KillInProgress& k : kills_) {
      if (k.report.kicked) {
        const SampleReader& victim = children_[static_cast<std::size_t>(k.report.index)].reader;
        k.report.kick_reason = victim.kicked.value_or("");
        k.report.comebacks = victim.comebacks;
        k.report.comebacks_refused = victim.comebacks_refused;
        k.report.comeback_reason = victim.comeback_reason;
        if (!victim.kicked) report_.failures.push_back(fmt::format("kicked peer {} was never told", k.report.peer));
        if (victim.comebacks == 0) report_.failures.push_back(fmt::format("kicked peer {} never tried to come back", k.report.peer));
        if (victim.comebacks_refused < victim.comebacks) {
          report_.failures.push_back(fmt::format("kicked peer {} came back {} of {} times", k.report.peer,
                                                 victim.comebacks - victim.comebacks_refused, victim.comebacks));
        }
        if (k.report.reowned_ms > kKickReownMs) {
          report_.failures.push_back(fmt::format("the objects of kicked peer {} were owned again after {} ms (expected {})",
                                                 k.report.peer, k.report.reowned_ms, kKickReownMs));
        }
      }
      const bool waiting_on_live = std::any_of(k.survivors.begin(), k.survivors.end(), [&](int i) {
        const Child& c = children_[static_cast<std::size_t>(i)];
        return !c.failure && !c.killed;
      });
      if (waiting_on_live) {
        k.report.reowned_ms = -1;
        report_.failures.push_back(fmt::format("some survivor never saw every object of killed peer {} owned again",
                                               k.report.peer));
      }
      report_.faults.push_back(k.report);
    }
  }

  // Every body each compared peer's final diagnoses give an owner that is not in the match.
  int unowned_bodies(const std::vector<const PeerSample*>& finals) const {
    std::vector<shoal::PeerId> live;
    for (const PeerSample* f : finals) {
      if (f != nullptr) live.push_back(f->figures.peer);
    }
    int unowned = 0;
    for (const PeerSample* f : finals) {
      if (f == nullptr) continue;
      for (const shoal::ObjectDiagnosis& d : f->diagnoses) {
        if (std::find(live.begin(), live.end(), d.owner) == live.end()) ++unowned;
      }
    }
    return unowned;
  }

  static void close_pipes(Child& c) {
    c.process->close_input();
    c.process->close_output();
  }

  void print_banner() const {
    const Options& options = options_;
    fmt::print("shoal-lan-match: {} peers, {} objects, {} s of play then {} s to settle; "
               "each link: {}% loss, {} ms latency +-{} ms, {}% duplicated, {}% reordered\n",
               options.peers, options.objects, options.seconds, options.settle_seconds, options.loss * 100,
               options.latency_ms, options.jitter_ms, options.duplicate * 100, options.reorder * 100);
    if (options.relay) fmt::print("shoal-lan-match: every peer plays through the relay at {}\n", to_string(*options.relay));
  }

  bool all_done() const {
    return std::all_of(children_.begin(), children_.end(), [](const Child& c) { return c.done(); });
  }

  void read_children(int timeout_ms) {
    std::vector<shoal::samples::ChildProcess*> reading;
    for (Child& c : children_) {
      if (c.process && c.process->output_open()) reading.push_back(&*c.process);
    }
    if (reading.empty()) return;
    shoal::samples::wait_for_output(reading, timeout_ms);
    for (Child& c : children_) {
      if (!c.process || !c.process->output_open()) continue;
      const std::size_t had = c.partial_line.size();
      c.process->read_available(c.partial_line);
      if (c.partial_line.size() == had) continue;
      std::size_t start = 0;
      for (std::size_t end; (end = c.partial_line.find('\n', start)) != std::string::npos; start = end + 1) {
        c.reader.add_line(std::string_view(c.partial_line).substr(start, end - start));
      }
      c.partial_line.erase(0, start);
      take_samples(c);
    }
  }

  void take_samples(Child& c) {
    for (PeerSample& s : c.reader.samples) {
      if (s.final) {
        c.final = std::move(s);
      } else {
        c.seconds.push_back(std::move(s));
      }
    }
    c.reader.samples.clear();
    for (const std::string& e : c.reader.errors) {
      if (!c.failure) c.failure = fmt::format("peer process {}: {}", c.index, e);
    }
    c.reader.errors.clear();
  }

  void reap_children() {
    for (Child& c : children_) {
      if (c.exited || !c.process) continue;
      const std::optional<shoal::samples::ExitStatus> status = c.process->try_wait();
      if (!status) continue;
      c.exited = true;
      read_rest(c);
      if (!c.final && !c.failure && !c.kicked) {
        c.failure = fmt::format("peer process {} {} before reporting", c.index, status->describe());
      }
    }
  }

  // Whatever a process wrote before exiting is still in its pipe.
  void read_rest(Child& c) {
    for (int i = 0; i < 64 && c.process->output_open(); ++i) read_children(0);
  }

  // Every child's sample of `frame` (nullptr where it has none).
  std::vector<const PeerSample*> samples_at(shoal::Frame frame) const {
    std::vector<const PeerSample*> samples;
    for (const Child& c : children_) {
      if (c.out_of_verdict()) continue;  // killed or kicked for good: the verdict is the survivors'
      samples.push_back(c.final && c.final->figures.frame == frame ? &*c.final : second_of(c, frame));
    }
    return samples;
  }

  const PeerSample* second_of(const Child& c, shoal::Frame frame) const {
    for (const PeerSample& s : c.seconds) {
      if (s.figures.frame == frame) return &s;
    }
    return nullptr;
  }

  // Prints each second once every peer still running has reported it (or, at the end, with
  // whatever arrived).
  void print_complete_seconds(bool flush_all) {
    for (;;) {
      const shoal::Frame frame = timeline_.sample_interval * static_cast<shoal::Frame>(rows_.size() + 1);
      if (frame >= timeline_.compare) return;
      std::vector<const PeerSample*> samples;
      bool complete = true, any = false;
      for (const Child& c : children_) {
        const PeerSample* s = second_of(c, frame);
        // A peer still joining holds no row up: the row shows how far it has come instead; nor
        // does one that joined after this second (restarted), which never samples it.
        const bool joined_later = !c.seconds.empty() && c.seconds.front().figures.frame > frame;
        complete = complete && (s != nullptr || !c.running() || c.out_of_verdict() || !c.reader.peer || joined_later);
        any = any || s != nullptr;
        samples.push_back(s);
      }
      if (!any || (!complete && !flush_all)) return;
      add_row(frame, samples);
    }
  }

  void add_row(shoal::Frame frame, const std::vector<const PeerSample*>& samples) {
    SecondRow row;
    row.time_s = timeline_.seconds_at(frame);
    std::vector<const PeerSample*> present;
    std::string line = fmt::format("t={:>3.0f}s", row.time_s);
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const PeerSample* s = samples[i];
      row.peers.push_back(s ? std::optional<PeerFigures>(s->figures) : std::nullopt);
      const PeerFigures* before = rows_.empty() || !rows_.back().peers[i] ? nullptr : &*rows_.back().peers[i];
      const float overrides = s ? static_cast<float>(s->figures.overrides - (before ? before->overrides : 0)) : 0;
      const float catchup = s ? static_cast<float>(s->figures.catchup_frames - (before ? before->catchup_frames : 0)) : 0;
      row.overrides_per_s.push_back(overrides);
      row.catchup_frames_per_s.push_back(catchup);
      if (!s) {
        const std::optional<shoal::JoinProgress>& phase = children_[i].reader.phase;
        if (!children_[i].reader.peer && phase) {
          line += fmt::format(" | #{} {}", i, shoal::to_string(phase->step));
          if (phase->needed > 0) line += fmt::format(" {}/{}", phase->done, phase->needed);
        } else {
          line += fmt::format(" | #{} --", i);
        }
        continue;
      }
      present.push_back(s);
      const PeerFigures& f = s->figures;
      line += fmt::format(" | p{} rtt {:>3.0f}ms {:>4.0f}kbps ovr {:>4.0f}/s cu {:>4.0f}/s own {:>3}", f.peer, f.rtt_ms,
                          f.kbps_out, overrides, catchup, f.owned_objects);
      if (f.pace < 1) line += fmt::format(" pace {:.2f}", f.pace);
      if (options_.projectiles > 0) line += fmt::format(" live {:>3}", f.live_objects);
    }
    row.max_position_error_m = compare_samples(present, bodies_).max_position_error_m;
    if (!quiet_) {
      fmt::print("{} | div {:.3f}m\n", line, row.max_position_error_m);
      std::fflush(stdout);
    }
    rows_.push_back(std::move(row));
  }

  void stop_children() {
    for (Child& c : children_) {
      if (c.process) {
        c.process->write("quit\n");
        c.process->close_input();
      }
    }
    const auto deadline = Clock::now() + kExitWait;
    for (Child& c : children_) {
      while (!c.exited && c.process) {
        if (const std::optional<shoal::samples::ExitStatus> status = c.process->try_wait()) {
          c.exited = true;
          if (!c.final && !c.failure && !(c.kicked && !status->killed && status->code == 0)) {
            c.failure = fmt::format("peer process {} {}", c.index, status->describe());
          }
        } else if (Clock::now() >= deadline) {
          c.process->kill();  // a leftover: killed, then reaped
          c.exited = true;
        } else {
          read_children(20);  // drains its output while it finishes; also paces this loop
        }
      }
      if (c.process) c.process->close_output();
    }
  }

  PeerSummary summarise(const Child& c) const {
    PeerSummary p;
    const PeerFigures& last = c.final ? c.final->figures : c.seconds.back().figures;
    p.id = last.peer;
    p.frames = last.frame;
    p.overrides = last.overrides;
    p.catchup_frames = last.catchup_frames;
    p.ownership_changes = last.ownership_changes;
    p.owned_objects = last.owned_objects;
    p.frozen_objects = last.frozen_objects;
    p.desyncs = last.desyncs;
    p.join_ms = last.join_ms;
    p.cpu_ms = last.cpu_ms;
    p.objects_spawned = last.objects_spawned;
    p.objects_removed = last.objects_removed;
    p.live_objects = last.live_objects;
    p.bad_spawn = last.bad_spawn;
    p.over_limit = last.over_limit;
    if (c.final) {  // its figures are the whole match's
      p.latency_p50_ms = last.latency_p50_ms;
      p.latency_p99_ms = last.latency_p99_ms;
      p.visual_p99_mm = last.visual_p99_mm;
      p.visual_max_mm = last.visual_max_mm;
    }
    int n = 0;
    for (const PeerSample& s : c.seconds) {
      p.slowest_pace = std::min(p.slowest_pace, s.figures.pace);
      if (s.figures.peers_seen < 2) continue;  // before anyone else joined: nothing to measure
      p.rtt_ms += s.figures.rtt_ms;
      p.loss += s.figures.loss;
      p.kbps_out += s.figures.kbps_out;
      p.kbps_in += s.figures.kbps_in;
      ++n;
    }
    if (n > 0) {
      p.rtt_ms /= static_cast<float>(n);
      p.loss /= static_cast<float>(n);
      p.kbps_out /= static_cast<float>(n);
      p.kbps_in /= static_cast<float>(n);
    }
    return p;
  }

  int finish() {
    MatchReport& report = report_;
    report.objects = bodies_;
    report.balls = arena_.balls;
    for (const Child& c : children_) {
      if (c.failure) report.failures.push_back(*c.failure);
      if (!c.out_of_verdict() && (c.final || !c.seconds.empty())) report.peers.push_back(summarise(c));
    }
    finish_faults();
    std::sort(report.peers.begin(), report.peers.end(),
              [](const PeerSummary& a, const PeerSummary& b) { return a.id < b.id; });
    // The first frame from `compare` on at which every peer saw every object at rest, else the
    // last one sampled (see Timeline::settle_checks).
    std::vector<const PeerSample*> compared;
    for (shoal::Frame frame = timeline_.compare; frame <= timeline_.last_compare(); frame += timeline_.sample_interval) {
      compared = samples_at(frame);
      report.compared_frame = frame;
      report.settled = all_at_rest(compared);
      if (report.settled) break;
    }
    report.final = compare_samples(compared, bodies_);
    std::vector<const PeerSample*> finals;
    for (const Child& c : children_) {
      if (!c.out_of_verdict()) finals.push_back(c.final ? &*c.final : nullptr);
    }
    report.bodies_unowned = unowned_bodies(finals);
    // A live peer that sees fewer peers than the match has lost a link to a live one (a timeout
    // while both still ran, as when a process is starved of CPU): say so, it explains the rest.
    for (const PeerSample* f : finals) {
      if (f != nullptr && f->figures.peers_seen != static_cast<int>(finals.size())) {
        report.failures.push_back(fmt::format("peer {} ends seeing {} peers of {}: a link to a live peer timed out",
                                              f->figures.peer, f->figures.peers_seen, finals.size()));
      }
    }
    report.differences = differing_bodies(compared, finals, all_bodies(arena_));
    if (options_.projectiles > 0) {
      report.spawned.rate = options_.projectiles;
      compare_spawned(compared, report.spawned);
      report.spawned.after_lifetimes = timeline_.final_frame();
      for (const PeerSample* f : finals) {
        if (f != nullptr) report.spawned.live_after_lifetimes = std::max(report.spawned.live_after_lifetimes, f->figures.live_objects);
      }
    }
    report.consistent = is_consistent(report);
    if (!quiet_) print_report(report);

    int code = report.consistent ? 0 : 1;
    try {
      if (!options_.report_path.empty()) write_json(options_.report_path, report);
      if (!options_.csv_path.empty()) write_csv(options_.csv_path, rows_);
      if (!options_.plot_path.empty()) write_plot(options_.plot_path, rows_);
    } catch (const std::exception& e) {
      fmt::print(stderr, "shoal-lan-match: {}\n", e.what());
      code = 1;
    }
    return code;
  }

  Options options_;
  shoal::SessionAuthority authority_{options_.session};  // the match's: it invites every peer process
  std::string self_path_;
  bool quiet_;
  Clock::time_point started_;
  MatchWatcher on_tick_;
  std::vector<shoal::Credentials> invitations_;  // by launched index, for --kick-peer
  std::vector<PeerFault> kill_plan_ = by_time(options_.kills), restart_plan_ = by_time(options_.restarts),
                         kick_plan_ = by_time(options_.kicks);
  std::size_t next_kill_ = 0, next_restart_ = 0, next_kick_ = 0;
  std::vector<KillInProgress> kills_;
  std::optional<RelayProcess> relay_;  // --relay-restart-at
  bool relay_restarted_ = false;
  MatchReport report_;
  Arena arena_;
  int bodies_;
  Timeline timeline_;
  std::vector<Child> children_;
  std::vector<SecondRow> rows_;
};

}  // namespace

MatchOutcome run_match(const Options& options, const std::string& self_path, bool quiet, const MatchWatcher& watcher) {
  Options launched = options;
  // A session of its own, so that matches running side by side (or one after another) never
  // join each other.
  if (launched.session == Options{}.session) {
    launched.session = fmt::format("shoal-lan-match-{}-{}", shoal::samples::current_process_id(), options.seed);
  }
  if (!options.record_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.record_dir, error);
    if (error) throw std::runtime_error(fmt::format("cannot create the folder '{}': {}", options.record_dir, error.message()));
  }
  Launcher launcher(launched, self_path, quiet);
  launcher.set_watcher(watcher);
  const int code = launcher.run();
  return {launcher.report(), code};
}

}  // namespace lan_match
