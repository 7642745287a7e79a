package board

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// minimalPoller is the least a program following withdrawals must do, to
// compare the board's cost with (issue 35 item 2): log in with an API
// key, then ask the status endpoint of one id after another at a rate,
// decoding each answer. No checks, no screen, no journal.
type minimalPoller struct {
	base    string
	client  *http.Client
	cookie  *http.Cookie
	account string
}

// pollerStatus is what the poller decodes of an answer.
type pollerStatus struct {
	QuoteID        string `json:"quote_id"`
	TxID           string `json:"tx_id"`
	State          string `json:"state"`
	Chain          string `json:"chain"`
	TokenOut       string `json:"token_out"`
	ReceiveAmount  string `json:"receive_amount"`
	WithdrawTxHash string `json:"withdraw_tx_hash"`
	UpdatedAt      string `json:"updated_at"`
}

// newMinimalPoller logs in to the service at base with apiKey.
func newMinimalPoller(base, apiKey string, client *http.Client) (*minimalPoller, error) {
	body, _ := json.Marshal(map[string]string{"api_key": apiKey})
	resp, err := client.Post(base+"/auth/api_key/login", "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("login: %s", resp.Status)
	}
	p := &minimalPoller{base: base, client: client, account: resp.Header.Get("X-Service-Account-Id")}
	for _, c := range resp.Cookies() {
		if c.Name == "svc" {
			p.cookie = c
		}
	}
	return p, nil
}

// ask asks the status of one id and decodes it.
func (p *minimalPoller) ask(ctx context.Context, id string) (pollerStatus, error) {
	var s pollerStatus
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/api/v1/bridge/withdrawal-status?quote_id="+url.QueryEscape(id), nil)
	if err != nil {
		return s, err
	}
	req.AddCookie(p.cookie)
	req.Header.Set("X-Service-Account-Id", p.account)
	resp, err := p.client.Do(req)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return s, fmt.Errorf("%s: %s", id, resp.Status)
	}
	return s, json.NewDecoder(resp.Body).Decode(&s)
}
