-- Handshakes answered before refusals had a kind were stored as refusals with a 2xx status and a reason
-- starting "handshake: ": they are handshakes.
UPDATE refusals SET kind = 'handshake' WHERE status < 300 AND reason LIKE 'handshake: %';
