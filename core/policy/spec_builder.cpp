// SPDX-License-Identifier: Apache-2.0
#include "policy/spec_builder.h"

#include "egress/egress_policy.h"
#include "policy/interception_flags.h"
#include "policy/proxy_environment.h"

#include <sys/random.h>
#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cctype>
#include <string_view>

namespace moat {

namespace {

bool isVariableName(const std::string& name)
{
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) {
        return false;
    }
    for (char c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
            return false;
        }
    }
    return true;
}

bool isSessionName(const std::string& name)
{
    if (name.empty() || name.size() > 63 || !std::isalnum(static_cast<unsigned char>(name.front()))) {
        return false;
    }
    for (char c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') {
            return false;
        }
    }
    return true;
}

Error flagError(const std::string& flag, const std::string& what, const std::string& hint)
{
    return Error{flag + ": " + what, 0, hint};
}

// "/a/b" contains "/a/b/c" and itself.
bool pathContains(const std::string& outer, const std::string& inner)
{
    if (outer == "/") {
        return true;
    }
    return inner == outer || (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
                              inner[outer.size()] == '/');
}

// The canonical form of a path that may not exist yet: the longest existing
// prefix resolved, the rest appended. Two spellings of one place (through a
// symlink, with "..") then compare equal even before moat creates it.
std::string canonicalOrLexical(const std::string& path)
{
    std::string existing = path;
    std::string rest;
    while (!existing.empty()) {
        char resolved[PATH_MAX];
        if (realpath(existing.c_str(), resolved)) {
            std::string result = resolved;
            if (!rest.empty()) {
                result += (result == "/" ? "" : "/") + rest;
            }
            return result;
        }
        const auto slash = existing.find_last_of('/');
        if (slash == std::string::npos) {
            break;
        }
        const std::string last = existing.substr(slash + 1);
        if (last == "..") {
            break;  // cannot drop a ".." we have not resolved: keep it lexical
        }
        if (!last.empty() && last != ".") {
            rest = rest.empty() ? last : last + "/" + rest;
        }
        existing = slash == 0 ? std::string("/") : existing.substr(0, slash);
        if (existing == "/") {
            return "/" + rest;
        }
    }
    return path;
}

std::string baseName(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string cleaned;
    for (char c : name) {
        cleaned += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '-';
    }
    if (cleaned.empty() || !std::isalnum(static_cast<unsigned char>(cleaned.front()))) {
        cleaned = "session";
    }
    return cleaned.substr(0, 40);
}

// --allow-host names what moat's proxy lets through. Without the proxy it
// would do nothing, silently: refuse it, since whoever typed it expects a
// narrower network than they would get.
Status checkAllowedHosts(const SandboxSpec& spec, const std::vector<std::string>& values)
{
    if (values.empty()) {
        return {};
    }
    if (spec.yolo) {
        return flagError("--allow-host", "--yolo opens the network to every host, so --allow-host would do nothing",
                         "Drop --yolo and give the flags you need (--sudo, --local-tcp, --ro PATH) to reach only "
                         "the hosts you list, or drop --allow-host");
    }
    if (spec.network == NetworkMode::None) {
        return flagError("--allow-host", "--net none has no proxy, so --allow-host would do nothing",
                         "Drop --net none to reach the hosts you list through moat's proxy (--net proxy, the "
                         "default), or drop --allow-host");
    }
    if (spec.network == NetworkMode::Open) {
        return flagError("--allow-host",
                         "--net open reaches every host directly, without moat's proxy, so --allow-host would do "
                         "nothing",
                         "Drop --net open to reach only the hosts you list, or drop --allow-host");
    }
    // The proxy parses these same values again; parsing them here turns a
    // typo into an error before the sandbox starts, not a refused connection
    // inside it.
    auto policy = EgressPolicy::fromArguments(values);
    if (policy) {
        return {};
    }
    Error error = policy.error();
    constexpr std::string_view kNamed = "invalid --allow-host value ";
    if (error.what.starts_with(kNamed)) {
        error.what = "invalid value " + error.what.substr(kNamed.size());
    }
    error.what = "--allow-host: " + error.what;
    return error;
}

// Under --net proxy moat points the proxy variables at its own proxy (see
// proxy_environment.h), the sandbox's only way out. A value passed with --env
// would only send clients to a dead end, or around the proxy's records.
// With --net none or open moat sets none of them, and the user's own proxy is
// theirs to pass.
Status refuseProxyVariables(const SandboxSpec& spec)
{
    if (spec.network != NetworkMode::Proxy) {
        return {};
    }
    for (const auto& name : spec.explicitEnv) {
        if (isProxyVariable(name)) {
            return flagError("--env", name + " is set by moat under --net proxy, to moat's own egress proxy",
                             "Drop --env " + name + " and allow destinations with --allow-host HOST[:PORT]");
        }
    }
    return {};
}

}  // namespace

std::string generateSessionId()
{
    unsigned char bytes[8];
    size_t filled = 0;
    while (filled < sizeof bytes) {
        const ssize_t got = getrandom(bytes + filled, sizeof bytes - filled, 0);
        if (got > 0) {
            filled += static_cast<size_t>(got);
        } else if (errno != EINTR) {
            std::abort();  // no randomness: nothing safe to do
        }
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string id;
    for (unsigned char byte : bytes) {
        id += kHex[byte >> 4];
        id += kHex[byte & 0xf];
    }
    return id;
}

SpecBuilder::SpecBuilder(MoatPaths paths, std::map<std::string, std::string> callerEnvironment,
                         std::string currentDirectory)
    : paths_(std::move(paths)),
      callerEnvironment_(std::move(callerEnvironment)),
      currentDirectory_(std::move(currentDirectory))
{
}

bool SpecBuilder::isSafeVariable(const std::string& name)
{
    return name == "PATH" || name == "TERM" || name == "LANG" || name == "TZ" || name == "COLORTERM" ||
           name.rfind("LC_", 0) == 0;
}

Result<std::string> SpecBuilder::canonicalPath(const std::string& raw, const std::string& flag) const
{
    if (raw.empty()) {
        return flagError(flag, "the path is empty", "Give an existing directory or file");
    }
    const std::string absolute = raw.front() == '/' ? raw : currentDirectory_ + "/" + raw;
    char resolved[PATH_MAX];
    if (!realpath(absolute.c_str(), resolved)) {
        const int err = errno;
        return Error{flag + ": cannot use '" + raw + "'", err, "Check that the path exists and that you can read it"};
    }
    return std::string(resolved);
}

Status SpecBuilder::refuseMoatDirs(const std::string& path, const std::string& flag) const
{
    // The sandbox must never see moat's own records, policy or homes: an agent
    // that could rewrite its audit log or its policy could widen itself.
    for (const auto& dir : {paths_.configDir, paths_.stateDir, paths_.dataDir}) {
        const std::string own = canonicalOrLexical(dir);
        if (pathContains(path, own) || pathContains(own, path)) {
            return flagError(flag, "'" + path + "' overlaps moat's own directory " + own,
                             "Choose a path that neither contains nor lies inside moat's config, state or data "
                             "directories (set MOAT_STATE_DIR etc. to move them)");
        }
    }
    return {};
}

Status SpecBuilder::addMount(SandboxSpec& spec, const std::string& raw, bool readOnly) const
{
    const std::string flag = readOnly ? "--ro" : "--rw";
    auto path = canonicalPath(raw, flag);
    if (!path) {
        return path.error();
    }
    if (path.value() == "/") {
        return flagError(flag, "the whole host file system cannot be mounted",
                         "Name the directory the task needs, or use --yolo to give up the boundary on purpose");
    }
    if (auto refused = refuseMoatDirs(path.value(), flag); !refused) {
        return refused;
    }
    for (auto& existing : spec.mounts) {
        if (existing.path == path.value()) {
            existing.readOnly = existing.readOnly && readOnly;
            return {};
        }
    }
    spec.mounts.push_back({path.value(), readOnly});
    return {};
}

Status SpecBuilder::addEnvironment(SandboxSpec& spec, const std::vector<std::string>& requested) const
{
    for (const auto& entry : callerEnvironment_) {
        if (isSafeVariable(entry.first)) {
            spec.environment.insert(entry);
        }
    }
    for (const auto& item : requested) {
        const auto eq = item.find('=');
        const std::string name = item.substr(0, eq);
        if (!isVariableName(name)) {
            return flagError("--env", "'" + name + "' is not a variable name", "Use NAME or NAME=VALUE");
        }
        if (name.rfind("MOAT_", 0) == 0) {
            return flagError("--env", name + " is set by moat itself", "Pick another name");
        }
        std::string value;
        if (eq != std::string::npos) {
            value = item.substr(eq + 1);
        } else if (auto found = callerEnvironment_.find(name); found != callerEnvironment_.end()) {
            value = found->second;
        } else {
            return flagError("--env", name + " is not set in your environment",
                             "Set it first, or pass a value with --env " + name + "=VALUE");
        }
        spec.environment[name] = value;
        spec.explicitEnv.push_back(name);
    }
    return {};
}

Result<SandboxSpec> SpecBuilder::build(const RunRequest& request) const
{
    SandboxSpec spec;
    spec.sessionId = generateSessionId();

    if (request.command.empty()) {
        return Error{"no command given", 0, "Put the command after --, e.g. moat run -- bash"};
    }
    spec.command = request.command;

    if (request.image.empty() || request.image == "host") {
        spec.image.kind = ImageRef::Kind::Host;
    } else {
        auto root = canonicalPath(request.image, "--image");
        if (!root) {
            return flagError("--image", "'" + request.image + "' is neither 'host' nor a root file system directory",
                             "Give 'host' or a directory that holds an unpacked root file system (with usr/ "
                             "inside); OCI layouts, archives and Dockerfiles are not supported by this build");
        }
        if (root.value() == "/") {
            return flagError("--image", "'/' is the whole host, not an image",
                             "Use --image host for the host's /usr, read-only");
        }
        // An image is shown read-only: it may live in moat's image store
        // (the data directory), but must not contain moat's directories, nor
        // lie inside its config or state.
        for (const auto& dir : {paths_.configDir, paths_.stateDir, paths_.dataDir}) {
            const std::string own = canonicalOrLexical(dir);
            const bool inside = dir != paths_.dataDir && pathContains(own, root.value());
            if (pathContains(root.value(), own) || inside) {
                return flagError("--image", "'" + root.value() + "' overlaps moat's own directory " + own,
                                 "Unpack the image somewhere else, or import it into moat's image store");
            }
        }
        struct stat info {};
        if (stat((root.value() + "/usr").c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
            return flagError("--image", "'" + root.value() + "' has no usr/ directory",
                             "Point --image at the top of an unpacked root file system (debootstrap makes one)");
        }
        spec.image.kind = ImageRef::Kind::RootfsDir;
        spec.image.path = root.value();
    }

    auto workspace = canonicalPath(request.workspace.empty() ? currentDirectory_ : request.workspace, "--workspace");
    if (!workspace) {
        return workspace.error();
    }
    struct stat info {};
    if (stat(workspace.value().c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
        return flagError("--workspace", "'" + workspace.value() + "' is not a directory",
                         "Give the project directory the agent should work in");
    }
    if (workspace.value() == "/") {
        return flagError("--workspace", "the root directory cannot be the workspace",
                         "Run moat from (or point --workspace at) the project directory");
    }
    if (auto refused = refuseMoatDirs(workspace.value(), "--workspace"); !refused) {
        return refused.error();
    }
    spec.workspace = workspace.value();

    for (const auto& path : request.readOnlyPaths) {
        if (auto added = addMount(spec, path, true); !added) {
            return added.error();
        }
    }
    for (const auto& path : request.readWritePaths) {
        if (auto added = addMount(spec, path, false); !added) {
            return added.error();
        }
    }
    if (auto env = addEnvironment(spec, request.env); !env) {
        return env.error();
    }

    const auto network = networkModeFromString(request.net);
    if (!network) {
        return flagError("--net", "'" + request.net + "' is not a network mode", "Use proxy, none or open");
    }
    spec.network = *network;

    if (request.docker) {
        return flagError("--docker", "a container engine inside the sandbox is not available in this build",
                         "Run without --docker; build the image beforehand with the tools the task needs");
    }
    spec.sudo = request.sudo;
    spec.localTcp = request.localTcp;
    if (request.yolo) {
        // One flag opens everything, and the record says so (ARCHITECTURE.md, principle 1).
        spec.yolo = true;
        spec.sudo = true;
        spec.network = NetworkMode::Open;
        spec.localTcp = true;
    }
    if (auto hosts = checkAllowedHosts(spec, request.allowHosts); !hosts) {
        return hosts.error();
    }
    spec.allowHosts = request.allowHosts;
    if (auto proxyEnv = refuseProxyVariables(spec); !proxyEnv) {
        return proxyEnv.error();
    }
    std::string upstreamCa;
    if (!request.upstreamCa.empty()) {
        auto canonical = canonicalPath(request.upstreamCa, "--upstream-ca");
        if (!canonical) {
            return canonical.error();
        }
        upstreamCa = canonical.value();
    }
    if (auto intercepted = applyInterceptionFlags(spec, request, upstreamCa); !intercepted) {
        return intercepted.error();
    }

    auto ttl = Duration::parse(request.ttl);
    if (!ttl) {
        return flagError("--ttl", ttl.error().what, ttl.error().hint);
    }
    spec.ttl = ttl.value();

    for (const auto& list : request.allowDegraded) {
        size_t start = 0;
        while (start <= list.size()) {
            const size_t comma = list.find(',', start);
            const std::string layer = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            const auto known = degradableLayerFromString(layer);
            if (!known) {
                return flagError("--allow-degraded", "'" + layer + "' is not a layer", "Use landlock, seccomp or userns");
            }
            spec.allowDegraded.insert(*known);
            if (comma == std::string::npos) {
                break;
            }
            start = comma + 1;
        }
    }

    if (request.name.empty()) {
        spec.name = baseName(spec.workspace) + "-" + spec.sessionId.substr(0, 6);
    } else if (isSessionName(request.name)) {
        spec.name = request.name;
    } else {
        return flagError("--name", "'" + request.name + "' is not a usable name",
                         "Use up to 63 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }
    return spec;
}

}  // namespace moat
