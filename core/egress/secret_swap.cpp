// SPDX-License-Identifier: Apache-2.0
#include "secret_swap.h"

#include "egress/basic_credentials.h"
#include "egress/secret_names.h"
#include "egress/secret_placeholder.h"

#include <algorithm>
#include <optional>

namespace moat {

namespace {

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return lower(x) == lower(y);
           });
}

bool containsIgnoreCase(std::string_view haystack, std::string_view needle)
{
    return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(), [](char x, char y) {
               return lower(x) == lower(y);
           }) != haystack.end();
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = lower(c);
    return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

// %XX decoded, any other byte as it is: a placeholder spelled with escapes
// in a URL is still a placeholder.
std::string percentDecoded(std::string_view text)
{
    std::string decoded;
    decoded.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hexDigit(text[i + 1]) >= 0 && hexDigit(text[i + 2]) >= 0) {
            decoded.push_back(static_cast<char>(hexDigit(text[i + 1]) * 16 + hexDigit(text[i + 2])));
            i += 2;
        } else {
            decoded.push_back(text[i]);
        }
    }
    return decoded;
}

// Agent-chosen text (a header name, a host) as it may appear in a record:
// printable ASCII only, bounded.
std::string printable(std::string_view text)
{
    std::string shown;
    for (char c : text.substr(0, 100)) {
        shown.push_back(c >= 0x20 && c < 0x7F ? c : '?');
    }
    return shown;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string text;
    for (const auto& item : items) {
        text += (text.empty() ? "" : ", ") + item;
    }
    return text;
}

std::string hostList(const SwapBinding& binding)
{
    std::vector<std::string> hosts;
    for (const auto& host : binding.hosts) {
        hosts.push_back(host.toString());
    }
    return joined(hosts);
}

bool isAuthorization(std::string_view header)
{
    return equalsIgnoreCase(header, "authorization") || equalsIgnoreCase(header, "proxy-authorization");
}

bool bindsHeader(const SwapBinding& binding, std::string_view header)
{
    return std::any_of(binding.headers.begin(), binding.headers.end(),
                       [header](const std::string& bound) { return equalsIgnoreCase(bound, header); });
}

bool bindsHost(const SwapBinding& binding, std::string_view host, uint16_t port)
{
    return std::any_of(binding.hosts.begin(), binding.hosts.end(),
                       [host, port](const HostPattern& pattern) { return pattern.matches(host, port); });
}

bool isPlaceholderFor(std::string_view placeholder, std::string_view name)
{
    const std::string head = std::string(kSecretPlaceholderPrefix) + std::string(name) + "-";
    if (placeholder.size() != head.size() + 32 || placeholder.substr(0, head.size()) != head) {
        return false;
    }
    return std::all_of(placeholder.begin() + static_cast<std::ptrdiff_t>(head.size()), placeholder.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// `text` with every exact placeholder of `allowed` replaced by its value, in
// one pass (a value is never searched again); records which were used.
std::string swapped(std::string_view text, const std::vector<const SwapBinding*>& allowed,
                    std::vector<const SwapBinding*>* usedHere)
{
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
        const SwapBinding* hit = nullptr;
        for (const SwapBinding* binding : allowed) {
            if (text.substr(i, binding->placeholder.size()) == binding->placeholder) {
                hit = binding;
                break;
            }
        }
        if (!hit) {
            out.push_back(text[i++]);
            continue;
        }
        out.append(hit->value.view());
        i += hit->placeholder.size();
        if (std::find(usedHere->begin(), usedHere->end(), hit) == usedHere->end()) {
            usedHere->push_back(hit);
        }
    }
    return out;
}

}  // namespace

Result<SwapBinding> makeSwapBinding(const std::string& name, LockedSecret value,
                                    const std::vector<std::string>& hosts, std::vector<std::string> headers)
{
    auto placeholder = makeSecretPlaceholder(name);
    if (!placeholder) {
        return placeholder.error();
    }
    std::vector<HostPattern> patterns;
    for (const auto& host : hosts) {
        auto pattern = HostPattern::parse(host);
        if (!pattern) {
            return Error{"secret " + name + ", host " + printable(host) + ": " + pattern.error().what, 0,
                         pattern.error().hint};
        }
        patterns.push_back(std::move(pattern.value()));
    }
    return SwapBinding{name, std::move(placeholder.value()), std::move(value), std::move(patterns),
                       std::move(headers)};
}

Result<SecretSwap> SecretSwap::create(std::vector<SwapBinding> bindings)
{
    for (size_t i = 0; i < bindings.size(); ++i) {
        SwapBinding& binding = bindings[i];
        if (auto valid = checkSecretName(binding.name); !valid) {
            return valid.error();
        }
        const std::string secret = "secret " + binding.name;
        if (!isPlaceholderFor(binding.placeholder, binding.name)) {
            return Error{secret + ": its placeholder is not one made by makeSecretPlaceholder() for that name"};
        }
        if (binding.hosts.empty()) {
            return Error{secret + " is bound to no host, so it could never be used", 0,
                         "Bind it to the hosts it is for: moat secret set " + binding.name + " --host HOST"};
        }
        if (binding.headers.empty()) {
            binding.headers.emplace_back(kDefaultSecretHeader);
        }
        for (const auto& header : binding.headers) {
            if (auto valid = checkSecretHeader(header); !valid) {
                return Error{secret + ": " + valid.error().what, 0, valid.error().hint};
            }
        }
        // Checked again here, not only where it was stored: a CR or LF in a
        // value would let it write headers of its own into the request.
        if (auto valid = checkSecretValue(binding.value.view()); !valid) {
            return Error{secret + ": " + valid.error().what, 0, valid.error().hint};
        }
        for (size_t j = 0; j < i; ++j) {
            if (bindings[j].name == binding.name || bindings[j].placeholder == binding.placeholder) {
                return Error{secret + " is given twice"};
            }
        }
    }
    return SecretSwap(std::move(bindings));
}

bool SecretSwap::bindsHost(std::string_view host, uint16_t port) const
{
    return std::any_of(bindings_.begin(), bindings_.end(),
                       [host, port](const SwapBinding& binding) { return moat::bindsHost(binding, host, port); });
}

SwapVerdict SecretSwap::apply(const SwapRequest& request) const
{
    SwapVerdict verdict;
    const auto refuse = [&verdict](const SwapBinding& binding, std::string where, std::string why) {
        verdict.refused = true;
        verdict.secret = binding.name;
        verdict.where = std::move(where);
        verdict.reason = "the placeholder of secret " + binding.name + " is in the " + verdict.where + ": " + why;
        return verdict;
    };
    const std::string host = printable(request.host);
    static const std::vector<HeaderField> kNoHeaders;
    const std::vector<HeaderField>& headers = request.headers ? *request.headers : kNoHeaders;

    // Everything is checked before anything is swapped: a refused request
    // leaves with no value in it (it does not leave at all).
    const std::string target = percentDecoded(request.target);
    for (const SwapBinding& binding : bindings_) {
        if (containsIgnoreCase(request.target, binding.placeholder) ||
            containsIgnoreCase(target, binding.placeholder)) {
            return refuse(binding, "request target", "moat puts secrets only into the headers they are bound to");
        }
        if (containsIgnoreCase(request.body, binding.placeholder)) {
            return refuse(binding, "body", "moat puts secrets only into the headers they are bound to");
        }
    }
    for (const HeaderField& field : headers) {
        const std::string name = printable(field.name);
        std::optional<std::string> credentials;
        if (isAuthorization(field.name)) {
            credentials = decodeBasicCredentials(field.value);
        }
        for (const SwapBinding& binding : bindings_) {
            if (containsIgnoreCase(field.name, binding.placeholder)) {
                return refuse(binding, "header name", "moat puts secrets only into header values");
            }
            const bool found = containsIgnoreCase(field.value, binding.placeholder) ||
                               (credentials && containsIgnoreCase(*credentials, binding.placeholder));
            if (!found) {
                continue;
            }
            if (!moat::bindsHost(binding, request.host, request.port)) {
                return refuse(binding, "header " + name,
                              "it may be sent to " + hostList(binding) + " only, not to " + host + ":" +
                                  std::to_string(request.port));
            }
            if (!bindsHeader(binding, field.name)) {
                return refuse(binding, "header " + name, "it may fill only " + joined(binding.headers));
            }
            if (!request.encrypted) {
                return refuse(binding, "header " + name, "it is sent only over TLS, and this request is in the clear");
            }
        }
        if (credentials) {
            LockedSecret::wipe(*credentials);
        }
    }

    if (!request.headers) {
        return verdict;
    }
    for (HeaderField& field : *request.headers) {
        std::vector<const SwapBinding*> allowed;
        for (const SwapBinding& binding : bindings_) {
            if (bindsHeader(binding, field.name) && moat::bindsHost(binding, request.host, request.port)) {
                allowed.push_back(&binding);
            }
        }
        if (allowed.empty()) {
            continue;
        }
        std::vector<const SwapBinding*> usedHere;
        std::string value = swapped(field.value, allowed, &usedHere);
        if (isAuthorization(field.name)) {
            if (auto credentials = decodeBasicCredentials(value)) {
                std::string replaced = swapped(*credentials, allowed, &usedHere);
                if (replaced != *credentials) {
                    LockedSecret::wipe(value);
                    value = encodeBasicCredentials(replaced);
                }
                LockedSecret::wipe(replaced);
                LockedSecret::wipe(*credentials);
            }
        }
        if (usedHere.empty()) {
            LockedSecret::wipe(value);
            continue;
        }
        field.value.swap(value);
        LockedSecret::wipe(value);
        for (const SwapBinding* binding : usedHere) {
            auto use = std::find_if(verdict.used.begin(), verdict.used.end(),
                                    [binding](const SwapVerdict::Use& u) { return u.secret == binding->name; });
            if (use == verdict.used.end()) {
                verdict.used.push_back({binding->name, {}});
                use = verdict.used.end() - 1;
            }
            use->headers.push_back(printable(field.name));
        }
    }
    // In binding order, as documented.
    std::vector<SwapVerdict::Use> ordered;
    for (const SwapBinding& binding : bindings_) {
        for (auto& use : verdict.used) {
            if (use.secret == binding.name) {
                ordered.push_back(std::move(use));
            }
        }
    }
    verdict.used = std::move(ordered);
    return verdict;
}

}  // namespace moat
