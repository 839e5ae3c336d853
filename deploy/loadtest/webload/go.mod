module croupier/deploy/loadtest/webload

go 1.22
