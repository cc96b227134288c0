// A Date whose local-time methods are its UTC methods, so that date-fns does calendar arithmetic
// in UTC wherever it runs. date-fns reads and writes dates through the local-time methods
// (getDate, setMonth, setFullYear, …): given a plain Date it would count months in the time zone
// of the browser or of the server's TZ, and an instant near midnight UTC would land on the wrong
// day. date-fns supports Date subclasses for exactly this (its results are built with
// `new date.constructor(value)`); the @date-fns/utc package's UTCDate is one, but it is not a
// dependency here, so this is the same idea for the methods date-fns uses.
export class UtcDate extends Date {
  constructor(value: number | Date) {
    super(typeof value === "number" ? value : value.getTime());
  }

  override getFullYear(): number {
    return this.getUTCFullYear();
  }
  override getMonth(): number {
    return this.getUTCMonth();
  }
  override getDate(): number {
    return this.getUTCDate();
  }
  override getDay(): number {
    return this.getUTCDay();
  }
  override getHours(): number {
    return this.getUTCHours();
  }
  override getMinutes(): number {
    return this.getUTCMinutes();
  }
  override getSeconds(): number {
    return this.getUTCSeconds();
  }
  override getMilliseconds(): number {
    return this.getUTCMilliseconds();
  }
  override getTimezoneOffset(): number {
    return 0;
  }

  // Rest parameters pass on exactly the arguments given: an explicit `undefined` day or minute
  // would turn the date invalid.
  override setFullYear(...args: Parameters<Date["setUTCFullYear"]>): number {
    return this.setUTCFullYear(...args);
  }
  override setMonth(...args: Parameters<Date["setUTCMonth"]>): number {
    return this.setUTCMonth(...args);
  }
  override setDate(...args: Parameters<Date["setUTCDate"]>): number {
    return this.setUTCDate(...args);
  }
  override setHours(...args: Parameters<Date["setUTCHours"]>): number {
    return this.setUTCHours(...args);
  }
  override setMinutes(...args: Parameters<Date["setUTCMinutes"]>): number {
    return this.setUTCMinutes(...args);
  }
  override setSeconds(...args: Parameters<Date["setUTCSeconds"]>): number {
    return this.setUTCSeconds(...args);
  }
  override setMilliseconds(...args: Parameters<Date["setUTCMilliseconds"]>): number {
    return this.setUTCMilliseconds(...args);
  }
}
