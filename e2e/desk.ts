import type { Locator, Page } from '@playwright/test';
import * as steps from './dashboard-helpers';
import type { TicketFill } from './dashboard-helpers';
import type { HostHandle } from './host-process';

/**
 * The trader's desk in one page against one browser host: what nearly every dashboard spec does
 * — open the desk logged in, pick a symbol, fill and place from the ticket, read the blotter, move
 * the paper market — with the page and the host given once. A spec gets it as the `desk` fixture
 * (the worker's shared host) or builds one with `deskOn(page, host)` for a host of its own.
 */
export class Desk {
  constructor(
    readonly page: Page,
    readonly host: HostHandle,
  ) {}

  /** Opens the workspace and waits until it is logged in. */
  open(): Promise<void> {
    return steps.openDashboard(this.page, this.host);
  }

  /** Sets INFY's price (1500 by default), opens the desk and chooses INFY; returns INFY's token. */
  openOnInfy(price?: number): Promise<number> {
    return steps.openOnInfy(this.page, this.host, price);
  }

  /** The order ticket form. */
  get ticket(): Locator {
    return steps.ticket(this.page);
  }

  /** The blotter table. */
  get blotter(): Locator {
    return steps.blotter(this.page);
  }

  /** A blotter row by order id. */
  orderRow(orderId: string): Locator {
    return steps.orderRow(this.page, orderId);
  }

  /** A position's "Net qty" cell. */
  netQty(symbol: string): Locator {
    return steps.netQty(this.page, symbol);
  }

  /** Picks an instrument in the ticket's Symbol combobox by typing and pressing Enter. */
  chooseSymbol(text: string, option: RegExp): Promise<void> {
    return steps.chooseSymbol(this.page, text, option);
  }

  /** Fills the ticket's fields (the symbol must already be chosen). */
  fillTicket(fill: TicketFill): Promise<void> {
    return steps.fillTicket(this.page, fill);
  }

  /** Clicks Place order and returns the order id the ticket acknowledges. */
  placeOrder(): Promise<string> {
    return steps.placeOrder(this.page);
  }

  /** Sets the risk limits in the dialog: a figure per row label, `hard` ticked or not. */
  setLimits(rows: Record<string, { value: string; hard: boolean }>): Promise<void> {
    return steps.setLimits(this.page, rows);
  }

  /** The paper broker's instrument token of a symbol on an exchange. */
  instrumentToken(exchange: string, symbol: string): Promise<number> {
    return steps.instrumentToken(this.host, exchange, symbol);
  }

  /** Sets a symbol's last price on the paper market (runs matching); returns its instrument token. */
  async setSymbolPrice(exchange: string, symbol: string, lastPrice: number): Promise<number> {
    const token = await this.instrumentToken(exchange, symbol);
    await this.setPrice(token, lastPrice);
    return token;
  }

  /** Sets an instrument's last price on the paper market (runs matching). */
  setPrice(token: number, lastPrice: number): Promise<void> {
    return steps.setPrice(this.host, token, lastPrice);
  }

  /** Sets (or with `{}` clears) the paper broker's fault injection. */
  setFaults(faults: Record<string, number>): Promise<void> {
    return steps.setFaults(this.host, faults);
  }

  /** Switches the paper broker's stream off (every socket cut, reconnects refused) or back on. */
  setStreamAccepting(accept: boolean): Promise<void> {
    return steps.setStreamAccepting(this.host, accept);
  }

  /** Cuts the stream and waits until the desk shows it is no longer live (so it polls fast). */
  cutStream(): Promise<void> {
    return steps.cutStream(this.page, this.host);
  }
}

/** The desk in `page` against `host` (a host the spec started, or a quiet one). */
export const deskOn = (page: Page, host: HostHandle): Desk => new Desk(page, host);
