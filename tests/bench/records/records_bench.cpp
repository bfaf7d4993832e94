// SPDX-License-Identifier: Apache-2.0
// How fast moat keeps a session's records: events appended with the hash
// chain and the HMAC (EventLog, the supervisor's writer, with its background
// fdatasync), and a log of a million events checked end to end (LogVerifier,
// what `moat audit verify` runs). Prints a markdown report; run.sh builds and
// runs it. Not part of the test suite.
#include "audit/event_log.h"
#include "audit/event_seal.h"
#include "audit/log_verifier.h"
#include "audit/record_keys.h"

#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using moat::EventLog;
using moat::LogVerdict;
using moat::LogVerifier;
using moat::RecordKeys;

double seconds(Clock::duration elapsed)
{
    return std::chrono::duration<double>(elapsed).count();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// What a busy session records: commands and network decisions, about the
// size of the real ones.
nlohmann::json eventData(uint64_t i, std::string* type)
{
    switch (i % 3) {
        case 0:
            *type = "exec";
            return {
                {"argv", {"git", "status", "--short", "--branch"}}, {"path", "/usr/bin/git"}, {"pid", 1000 + i % 5000}};
        case 1:
            *type = "net.allow";
            return {{"protocol", "connect"},
                    {"host", "pypi.org"},
                    {"port", 443},
                    {"rule", "pypi.org"},
                    {"address", "151.101.0.223"}};
        default:
            *type = "net.deny";
            return {{"protocol", "http"}, {"host", "telemetry.example.com"}, {"port", 80},
                    {"method", "POST"},   {"path", "/v1/collect"},           {"reason", "host not allowed"}};
    }
}

struct Written {
    double seconds = 0;  // appends only
    double sealSeconds = 0;
    uintmax_t bytes = 0;
};

Written writeLog(const std::string& path, const std::string& session, uint64_t events,
                 const std::shared_ptr<const RecordKeys>& keys)
{
    std::filesystem::remove(path);
    std::filesystem::remove(moat::EventSeal::pathFor(path));
    auto log = EventLog::open(path, session, keys);
    if (!log) {
        std::fprintf(stderr, "records_bench: %s\n", log.error().message().c_str());
        std::exit(2);
    }
    std::string type;
    const auto start = Clock::now();
    for (uint64_t i = 0; i < events; ++i) {
        nlohmann::json data = eventData(i, &type);
        if (auto appended = log->append(type, std::move(data)); !appended) {
            std::fprintf(stderr, "records_bench: %s\n", appended.error().message().c_str());
            std::exit(2);
        }
    }
    const auto appended = Clock::now();
    if (auto sealed = log->seal(); !sealed) {
        std::fprintf(stderr, "records_bench: %s\n", sealed.error().message().c_str());
        std::exit(2);
    }
    Written written;
    written.seconds = seconds(appended - start);
    written.sealSeconds = seconds(Clock::now() - appended);
    written.bytes = std::filesystem::file_size(path);
    return written;
}

// What one fdatasync per line would cost on this disk.
double syncedLinesPerSecond(const std::string& path, int lines)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    const std::string line(250, 'x');
    const auto start = Clock::now();
    for (int i = 0; i < lines; ++i) {
        if (::write(fd, line.data(), line.size()) < 0 || ::fdatasync(fd) != 0) {
            std::perror("records_bench: fdatasync");
            std::exit(2);
        }
    }
    const double elapsed = seconds(Clock::now() - start);
    ::close(fd);
    std::filesystem::remove(path);
    return lines / elapsed;
}

}  // namespace

int main(int argc, char** argv)
{
    std::string dir = "/tmp";
    uint64_t appendEvents = 200000;
    uint64_t verifyEvents = 1000000;
    int rounds = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "records_bench: %s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--dir") {
            dir = next();
        } else if (arg == "--append-events") {
            appendEvents = std::stoull(next());
        } else if (arg == "--verify-events") {
            verifyEvents = std::stoull(next());
        } else if (arg == "--rounds") {
            rounds = std::stoi(next());
        } else {
            std::fprintf(stderr,
                         "usage: records_bench [--dir DIR] [--append-events N] [--verify-events N] [--rounds N]\n");
            return 2;
        }
    }
    auto generated = RecordKeys::generate();
    if (!generated) {
        std::fprintf(stderr, "records_bench: %s\n", generated.error().message().c_str());
        return 2;
    }
    auto keys = std::make_shared<const RecordKeys>(std::move(generated.value()));
    const std::string session = "be7cbe7cbe7cbe7c";
    const std::string work = dir + "/moat-records-bench-" + std::to_string(::getpid());
    std::filesystem::create_directories(work);
    const std::string path = work + "/events.jsonl";

    std::vector<double> rates, seals;
    uintmax_t appendBytes = 0;
    for (int round = 0; round < rounds; ++round) {
        const Written written = writeLog(path, session, appendEvents, keys);
        rates.push_back(static_cast<double>(appendEvents) / written.seconds);
        seals.push_back(written.sealSeconds * 1000);
        appendBytes = written.bytes;
    }

    const Written big = writeLog(path, session, verifyEvents, keys);
    const LogVerifier verifier(
        [&keys](const std::string&) -> moat::Result<std::shared_ptr<const RecordKeys>> { return keys; });
    std::vector<double> verifySeconds;
    for (int round = 0; round < std::max(3, rounds / 2); ++round) {
        const auto start = Clock::now();
        const LogVerdict verdict = verifier.verify(path, session, LogVerifier::SessionState::Ended);
        verifySeconds.push_back(seconds(Clock::now() - start));
        if (verdict.outcome != LogVerdict::Outcome::Intact || verdict.lines != verifyEvents) {
            std::fprintf(stderr, "records_bench: the log did not verify: %s\n", verdict.problem.c_str());
            return 2;
        }
    }
    const double perLineSync = syncedLinesPerSecond(work + "/synced.bin", 1000);
    std::filesystem::remove_all(work);

    utsname host{};
    ::uname(&host);
    std::printf("Machine: %ld CPUs, kernel %s; logs written in %s.\n\n", ::sysconf(_SC_NPROCESSORS_ONLN), host.release,
                dir.c_str());
    std::printf("| measure | median | rounds | target | met? |\n| --- | ---: | ---: | --- | --- |\n");
    const double rate = median(rates);
    std::printf(
        "| append with chain + HMAC, %llu events (%.0f bytes a line) | %.0f events/s | %d | >= 50,000 events/s | %s "
        "|\n",
        static_cast<unsigned long long>(appendEvents), static_cast<double>(appendBytes) / appendEvents, rate, rounds,
        rate >= 50000 ? "yes" : "no");
    std::printf("| seal at the end (fdatasync of the log, Ed25519, seal file synced) | %.1f ms | %d | | |\n",
                median(seals), rounds);
    const double verify = median(verifySeconds);
    std::printf("| verify %llu events (%.0f MiB) | %.2f s | %zu | < 5 s | %s |\n",
                static_cast<unsigned long long>(verifyEvents), static_cast<double>(big.bytes) / (1 << 20), verify,
                verifySeconds.size(), verify < 5 ? "yes" : "no");
    std::printf("| for comparison: one fdatasync per 250-byte line | %.0f lines/s | 1 | | |\n", perLineSync);
    return 0;
}
