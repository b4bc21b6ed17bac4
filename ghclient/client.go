package ghclient

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/cli/go-gh/v2/pkg/api"
)

// Options configure a Client. Zero values take gh's behaviour and the
// defaults noted on each field.
type Options struct {
	// Host is the GitHub host; "" resolves like gh (GH_HOST, hosts.yml).
	Host string
	// Token is used as given; "" resolves like gh (GH_TOKEN, GITHUB_TOKEN,
	// GH_ENTERPRISE_TOKEN, hosts.yml, `gh auth token`).
	Token string
	// BaseTransport carries the requests; nil is http.DefaultTransport.
	// Tests and the demo pass a loopback.Transport; nothing else differs.
	BaseTransport http.RoundTripper

	MaxAttempts    int           // per request, first try included; default 4
	BaseBackoff    time.Duration // first retry delay, doubled per retry; default 1s
	MaxBackoff     time.Duration // cap of one retry delay; default 30s
	MaxWait        time.Duration // longest rate-limit wait accepted; default 5m
	AttemptTimeout time.Duration // one attempt, body included; default 30s
	MaxBody        int64         // largest response accepted; default 64 MiB
	ETagEntries    int           // REST responses kept for conditional GETs; default 512

	// Sleep waits for d or until ctx ends; tests inject a fake clock.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for rate-limit resets and ObservedAt.
	Now func() time.Time
	// OnWait is told about every deliberate pause (retry backoff or a rate
	// limit) before it starts, so a UI can say so. reason is one sanitized
	// line that does not mention d; the caller adds "waiting d" itself.
	OnWait func(reason string, d time.Duration)

	// Log receives go-gh's request log. nil leaves it to GH_DEBUG, as gh
	// does (stderr; "api" in the value adds headers and bodies). go-gh masks
	// the Authorization header and ghclient masks the token anywhere else.
	Log        io.Writer
	LogVerbose bool // headers and bodies too
}

// Client performs all of prloop's GitHub I/O for one host and identity.
type Client struct {
	host   string
	rest   *api.RESTClient
	gql    *api.GraphQLClient
	prefix string
	etags  *etagCache
	retry  *retryTransport // its policy also paces GraphQL-level retries
	now    func() time.Time
	red    redactor
}

// New resolves host and token like gh and builds the REST and GraphQL
// clients over one transport chain: go-gh headers and logging, then the
// ETag cache, retries and rate-limit waits, metering, and BaseTransport.
func New(opts Options) (*Client, error) {
	host, token, err := resolveAuth(opts.Host, opts.Token)
	if err != nil {
		return nil, err
	}
	opts = withDefaults(opts)
	base := opts.BaseTransport
	if base == nil {
		base = http.DefaultTransport
	}
	etags := newETagCache(opts.ETagEntries)
	retry := &retryTransport{
		p: retryPolicy{
			maxAttempts:    opts.MaxAttempts,
			baseBackoff:    opts.BaseBackoff,
			maxBackoff:     opts.MaxBackoff,
			maxWait:        opts.MaxWait,
			attemptTimeout: opts.AttemptTimeout,
			maxBody:        opts.MaxBody,
			sleep:          opts.Sleep,
			now:            opts.Now,
			onWait:         opts.OnWait,
		},
		limits: newLimitState(),
		next:   meterTransport{next: base},
	}
	chain := etagTransport{cache: etags, next: retry}
	logTo, verbose := logTarget(opts)
	if logTo != nil {
		logTo = newRedactingWriter(logTo, token)
	}
	co := api.ClientOptions{
		Host:           host,
		AuthToken:      token,
		Transport:      chain,
		Log:            logTo,
		LogIgnoreEnv:   true,
		LogVerboseHTTP: verbose,
		// Redirects are followed by net/http only for GETs we issue; a
		// redirect never turns a write into something else.
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.Method != http.MethodGet || len(via) >= 5 {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
	red := redactor{secret: token}
	rest, err := api.NewRESTClient(co)
	if err != nil {
		return nil, red.err(err)
	}
	gql, err := api.NewGraphQLClient(co)
	if err != nil {
		return nil, red.err(err)
	}
	return &Client{host: host, rest: rest, gql: gql, prefix: restPathPrefix(host), etags: etags, retry: retry, now: opts.Now, red: red}, nil
}

func withDefaults(o Options) Options {
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 4
	}
	if o.BaseBackoff <= 0 {
		o.BaseBackoff = time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 30 * time.Second
	}
	if o.MaxWait <= 0 {
		o.MaxWait = 5 * time.Minute
	}
	if o.AttemptTimeout <= 0 {
		o.AttemptTimeout = 30 * time.Second
	}
	if o.MaxBody <= 0 {
		o.MaxBody = 64 << 20
	}
	if o.ETagEntries <= 0 {
		o.ETagEntries = 512
	}
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Host is the GitHub host this client talks to.
func (c *Client) Host() string { return c.host }
